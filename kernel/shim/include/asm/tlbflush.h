/*
 * Shim: TLB maintenance becomes the machine's invalidation primitives.
 * Every variant the tree may call across releases is a macro that reads
 * only the addresses and the flags (the vma or mm argument differs between
 * releases and is not evaluated); each reaches the machine with its kind
 * and flags.
 *
 * __flush_tlb_range has had two six-argument forms: (..., stride,
 * last_level, tlb_level) up to 2026 and (..., stride, tlb_level, tlbf_t
 * flags) since.  The shim's TLBF_* values carry a mark no level has, so
 * one macro takes both.  The stride and the level travel as hints: the
 * model judges what a TLBI per stride at that level drops.
 */
#ifndef PTESPEC_SHIM_ASM_TLBFLUSH_H
#define PTESPEC_SHIM_ASM_TLBFLUSH_H

void ptespec_flush_range(unsigned long start, unsigned long end, unsigned int flags);
void ptespec_flush_page(unsigned long addr, unsigned int flags);
void ptespec_flush_all(unsigned int flags);

#define TLBI_TTL_UNKNOWN 0x7fffffff

typedef u64 tlbf_t;
#define PTESPEC_TLBF (1ULL << 40)
#define TLBF_NONE ((tlbf_t)PTESPEC_TLBF)
#define TLBF_NOWALKCACHE ((tlbf_t)(PTESPEC_TLBF | BIT(0)))
#define TLBF_NOSYNC ((tlbf_t)(PTESPEC_TLBF | BIT(1)))
#define TLBF_NONOTIFY ((tlbf_t)(PTESPEC_TLBF | BIT(2)))
#define TLBF_NOBROADCAST ((tlbf_t)(PTESPEC_TLBF | BIT(3)))

/* The flush flags of a tlbf_t (TLBF_NONOTIFY concerns mmu notifiers, which the model has none of). */
static inline unsigned int ptespec_tlbf(u64 f)
{
	return ((f & BIT(0)) ? PTESPEC_FLUSH_LAST_LEVEL : 0) | ((f & BIT(1)) ? PTESPEC_FLUSH_NOSYNC : 0) |
	       ((f & BIT(3)) ? PTESPEC_FLUSH_LOCAL : 0);
}
/* The hints: a stride in bytes (a power of two, PAGE_SIZE or more) and a TTL level. */
static inline unsigned int ptespec_tlb_hints(unsigned long stride, u64 level)
{
	unsigned long pages = stride >> PAGE_SHIFT;
	unsigned int hints = pages > 1 ? PTESPEC_FLUSH_STRIDE(__builtin_ctzl(pages)) : 0;

	if (level <= 3)
		hints |= PTESPEC_FLUSH_LEVEL(level);
	return hints;
}
/* a5, a6: last_level and tlb_level (before 2026), or tlb_level and flags. */
static inline void ptespec_tlb_range(unsigned long start, unsigned long end, unsigned long stride, u64 a5, u64 a6,
				     unsigned int extra)
{
	if (a6 & PTESPEC_TLBF)
		ptespec_flush_range(start, end, extra | ptespec_tlbf(a6) | ptespec_tlb_hints(stride, a5));
	else
		ptespec_flush_range(start, end,
				    extra | (a5 ? PTESPEC_FLUSH_LAST_LEVEL : 0) | ptespec_tlb_hints(stride, a6));
}

#define __flush_tlb_range(vma, start, end, stride, a5, a6) \
	ptespec_tlb_range((start), (end), (stride), (u64)(a5), (u64)(a6), 0)
#define __flush_tlb_range_nosync(vma_or_mm, start, end, stride, a5, a6) \
	ptespec_tlb_range((start), (end), (stride), (u64)(a5), (u64)(a6), PTESPEC_FLUSH_NOSYNC)
#define flush_tlb_range(vma, start, end) ptespec_flush_range((start), (end), 0)
#define __flush_tlb_page(vma, addr, flags) ptespec_flush_page((addr), ptespec_tlbf(flags))
#define flush_tlb_page(vma, addr) ptespec_flush_page((addr), 0)
#define flush_tlb_page_nosync(vma, addr) ptespec_flush_page((addr), PTESPEC_FLUSH_NOSYNC)
#define __flush_tlb_page_nosync(vma_or_mm, addr) ptespec_flush_page((addr), PTESPEC_FLUSH_NOSYNC)
#define local_flush_tlb_page(vma, addr) ptespec_flush_page((addr), PTESPEC_FLUSH_LOCAL)
#define local_flush_tlb_page_nonotify(vma, addr) ptespec_flush_page((addr), PTESPEC_FLUSH_LOCAL)
#define local_flush_tlb_contpte(vma, addr) \
	ptespec_flush_range(ALIGN_DOWN((addr), CONT_PTE_SIZE), ALIGN_DOWN((addr), CONT_PTE_SIZE) + CONT_PTE_SIZE, \
			    PTESPEC_FLUSH_LOCAL | PTESPEC_FLUSH_LAST_LEVEL | PTESPEC_FLUSH_LEVEL(3))
/* A kernel range flush invalidates those addresses in every address space,
 * broadcast and synchronous: for the one table the model has, a range flush
 * of it.  The mm tree's pgtable.h calls it before a kernel entry is set
 * again. */
#define flush_tlb_kernel_range(start, end) ptespec_flush_range((start), (end), 0)
#define flush_tlb_mm(mm) ptespec_flush_all(0)
#define flush_tlb_all() ptespec_flush_all(0)

#endif
