/* Shim: everything the tree needs from <linux/sched.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_LINUX_SCHED_H
#define PTESPEC_SHIM_LINUX_SCHED_H
#endif
