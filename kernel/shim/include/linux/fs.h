/* Shim: nothing a tree's hugetlbpage.c takes from <linux/fs.h> reaches the model's calls. */
#ifndef PTESPEC_SHIM_LINUX_FS_H
#define PTESPEC_SHIM_LINUX_FS_H
#endif
