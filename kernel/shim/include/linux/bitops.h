/* Shim: everything the tree needs from <linux/bitops.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_BITOPS_H
#define PTESPEC_SHIM_LINUX_BITOPS_H
#endif
