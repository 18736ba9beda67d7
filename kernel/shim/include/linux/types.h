/* Shim: everything the tree needs from <linux/types.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_TYPES_H
#define PTESPEC_SHIM_LINUX_TYPES_H
#endif
