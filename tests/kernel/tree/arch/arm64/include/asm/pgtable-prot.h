/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software bits of a page descriptor (bits the walker ignores) and the
 * encodings of entries that are not valid.
 */
#ifndef __ASM_PGTABLE_PROT_H
#define __ASM_PGTABLE_PROT_H

#include <asm/memory.h>
#include <asm/pgtable-hwdef.h>
#include <asm/pgtable-types.h>

#define PTE_WRITE		(PTE_DBM)		/* same as DBM (51) */
#define PTE_SWP_EXCLUSIVE	(_AT(pteval_t, 1) << 2)	/* only for swp ptes */
#define PTE_DIRTY		(_AT(pteval_t, 1) << 55)
#define PTE_SPECIAL		(_AT(pteval_t, 1) << 56)

/* nG on an entry that is not valid: present, but not accessible (PROT_NONE). */
#define PTE_PRESENT_INVALID	(PTE_NG)

#endif /* __ASM_PGTABLE_PROT_H */
