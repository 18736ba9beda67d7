/*
 * Shim: four levels, the p4d folded into the pgd.  pgd_t, pud_t and pmd_t
 * are the tree's own (pgtable-types.h); this adds the folded level on top.
 */
#ifndef PTESPEC_SHIM_PGTABLE_NOP4D_H
#define PTESPEC_SHIM_PGTABLE_NOP4D_H
#define P4D_SHIFT PGDIR_SHIFT
#define PTRS_PER_P4D 1
#define P4D_SIZE (1UL << P4D_SHIFT)
#define P4D_MASK (~(P4D_SIZE - 1))
/* A tree with no pgd_t (ptespec's test tree) needs no p4d_t either. */
#ifdef pgd_val
typedef struct { pgd_t pgd; } p4d_t;
#define p4d_val(x) (pgd_val((x).pgd))
#define __p4d(x) ((p4d_t) { __pgd(x) })
static inline int pgd_none(pgd_t pgd) { return 0; }
static inline int pgd_bad(pgd_t pgd) { return 0; }
static inline int pgd_present(pgd_t pgd) { return 1; }
static inline void pgd_clear(pgd_t *pgdp) { }
static inline p4d_t *p4d_offset(pgd_t *pgdp, unsigned long addr) { return (p4d_t *)pgdp; }
#endif
#endif
