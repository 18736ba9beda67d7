/* Shim: everything the tree needs from <linux/const.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_CONST_H
#define PTESPEC_SHIM_LINUX_CONST_H
#endif
