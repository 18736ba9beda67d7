/* Shim: nothing a tree's hugetlbpage.c takes from <asm/mman.h> reaches the model's calls. */
#ifndef PTESPEC_SHIM_ASM_MMAN_H
#define PTESPEC_SHIM_ASM_MMAN_H
#endif
