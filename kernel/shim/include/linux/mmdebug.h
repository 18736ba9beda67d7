/* Shim: everything the tree needs from <linux/mmdebug.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_MMDEBUG_H
#define PTESPEC_SHIM_LINUX_MMDEBUG_H
#endif
