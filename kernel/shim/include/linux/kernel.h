/* Shim: everything the tree needs from <linux/kernel.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_KERNEL_H
#define PTESPEC_SHIM_LINUX_KERNEL_H
#endif
