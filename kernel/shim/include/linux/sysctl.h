/* Shim: nothing a tree's hugetlbpage.c takes from <linux/sysctl.h> reaches the model's calls. */
#ifndef PTESPEC_SHIM_LINUX_SYSCTL_H
#define PTESPEC_SHIM_LINUX_SYSCTL_H
#endif
