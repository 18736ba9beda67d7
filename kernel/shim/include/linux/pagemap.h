/* Shim: nothing a tree's hugetlbpage.c takes from <linux/pagemap.h> reaches the model's calls. */
#ifndef PTESPEC_SHIM_LINUX_PAGEMAP_H
#define PTESPEC_SHIM_LINUX_PAGEMAP_H
#endif
