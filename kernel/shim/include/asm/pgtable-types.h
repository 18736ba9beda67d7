/*
 * Shim: the page table types.  The tree's own pgtable-types.h in the C
 * build; in the symbolic build the same names with pteval_t a pte word of
 * the proofs (ptespec/word.h), which the tree's typedef to u64 cannot be.
 * Only the types change: every helper on them is still the tree's.
 */
#ifndef PTESPEC_SYMBOLIC
#include_next <asm/pgtable-types.h>
#else
#ifndef PTESPEC_SHIM_ASM_PGTABLE_TYPES_H
#define PTESPEC_SHIM_ASM_PGTABLE_TYPES_H
/* The tree's guard, so that nothing reaches its typedefs too. */
#define __ASM_PGTABLE_TYPES_H

typedef ptespec_word pteval_t;
typedef ptespec_word ptdesc_t;	/* a descriptor of any level, as the newest trees name it */
typedef u64 pmdval_t;
typedef u64 pudval_t;
typedef u64 pgdval_t;

typedef struct { pteval_t pte; } pte_t;
#define pte_val(x)	((x).pte)
#define __pte(x)	((pte_t) { (x) })

typedef struct { pmdval_t pmd; } pmd_t;
#define pmd_val(x)	((x).pmd)
#define __pmd(x)	((pmd_t) { (x) })

typedef struct { pudval_t pud; } pud_t;
#define pud_val(x)	((x).pud)
#define __pud(x)	((pud_t) { (x) })

typedef struct { pgdval_t pgd; } pgd_t;
#define pgd_val(x)	((x).pgd)
#define __pgd(x)	((pgd_t) { (x) })

typedef struct { pteval_t pgprot; } pgprot_t;
#define pgprot_val(x)	((x).pgprot)
#define __pgprot(x)	((pgprot_t) { (x) })

template <>
struct ptespec_holds_word<pte_t> : std::true_type {
};
template <>
struct ptespec_holds_word<pgprot_t> : std::true_type {
};

#include <asm-generic/pgtable-nop4d.h>

#endif
#endif
