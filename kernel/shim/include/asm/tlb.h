/* Shim: nothing a tree's hugetlbpage.c takes from <asm/tlb.h> reaches the model's calls. */
#ifndef PTESPEC_SHIM_ASM_TLB_H
#define PTESPEC_SHIM_ASM_TLB_H
#endif
