/* Shim: nothing a tree's hugetlbpage.c takes from <linux/err.h> reaches the model's calls. */
#ifndef PTESPEC_SHIM_LINUX_ERR_H
#define PTESPEC_SHIM_LINUX_ERR_H
#endif
