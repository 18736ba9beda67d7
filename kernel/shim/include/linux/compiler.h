/* Shim: everything the tree needs from <linux/compiler.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_COMPILER_H
#define PTESPEC_SHIM_LINUX_COMPILER_H
#endif
