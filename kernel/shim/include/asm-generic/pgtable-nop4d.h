/* Shim: four levels, the p4d folded into the pgd. */
#ifndef PTESPEC_SHIM_PGTABLE_NOP4D_H
#define PTESPEC_SHIM_PGTABLE_NOP4D_H
typedef struct { u64 pgd; } pgd_t;
typedef struct { pgd_t pgd; } p4d_t;
typedef struct { u64 pud; } pud_t;
#endif
