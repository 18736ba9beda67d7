/* Shim: everything the tree needs from <linux/export.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_EXPORT_H
#define PTESPEC_SHIM_LINUX_EXPORT_H
#endif
