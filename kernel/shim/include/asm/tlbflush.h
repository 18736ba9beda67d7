/*
 * Shim: TLB maintenance becomes the machine's invalidation primitives.
 * Every variant the tree may call across releases is a macro that reads
 * only the addresses (the vma or mm argument differs between releases and
 * is not evaluated); each reaches the machine with its kind and flags.
 */
#ifndef PTESPEC_SHIM_ASM_TLBFLUSH_H
#define PTESPEC_SHIM_ASM_TLBFLUSH_H

void ptespec_flush_range(unsigned long start, unsigned long end, unsigned int flags);
void ptespec_flush_page(unsigned long addr, unsigned int flags);
void ptespec_flush_all(unsigned int flags);

#define TLB_FLUSH_VMA(mm, flags) { .vm_mm = (mm), .vm_flags = (flags) }

#define __flush_tlb_range(vma, start, end, stride, last_level, ...) \
	ptespec_flush_range((start), (end), (last_level) ? PTESPEC_FLUSH_LAST_LEVEL : 0)
#define __flush_tlb_range_nosync(vma_or_mm, start, end, stride, last_level, ...) \
	ptespec_flush_range((start), (end), PTESPEC_FLUSH_NOSYNC | ((last_level) ? PTESPEC_FLUSH_LAST_LEVEL : 0))
#define flush_tlb_range(vma, start, end) ptespec_flush_range((start), (end), 0)
#define flush_tlb_page(vma, addr) ptespec_flush_page((addr), 0)
#define flush_tlb_page_nosync(vma, addr) ptespec_flush_page((addr), PTESPEC_FLUSH_NOSYNC)
#define __flush_tlb_page_nosync(vma_or_mm, addr) ptespec_flush_page((addr), PTESPEC_FLUSH_NOSYNC)
#define local_flush_tlb_contpte(vma, addr) \
	ptespec_flush_range(ALIGN_DOWN((addr), CONT_PTE_SIZE), ALIGN_DOWN((addr), CONT_PTE_SIZE) + CONT_PTE_SIZE, \
			    PTESPEC_FLUSH_LOCAL | PTESPEC_FLUSH_LAST_LEVEL)
#define flush_tlb_mm(mm) ptespec_flush_all(0)
#define flush_tlb_all() ptespec_flush_all(0)

#endif
