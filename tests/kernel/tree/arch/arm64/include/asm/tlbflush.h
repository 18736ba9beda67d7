/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLB maintenance of ptespec's test tree, written in the shape arm64's
 * own header has (the raw TLBI macros, operands built field by field, a
 * range loop, the flush API on top) so that ptespec compiles it as it
 * compiles a real tree's.  The API is the 2026 one:
 * __flush_tlb_range(vma, start, end, stride, tlb_level, flags).
 */
#ifndef __ASM_TLBFLUSH_H
#define __ASM_TLBFLUSH_H

#include <linux/bitfield.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/mmu_notifier.h>
#include <asm/cputype.h>
#include <asm/mmu.h>

/* One TLBI, with or without a register operand. */
#define __TLBI_0(op, arg) asm volatile("tlbi " #op "\n" : : )
#define __TLBI_1(op, arg) asm volatile("tlbi " #op ", %x0\n" : : "rZ" (arg))
#define __TLBI_N(op, arg, n, ...) __TLBI_##n(op, arg)
#define __tlbi(op, ...) __TLBI_N(op, ##__VA_ARGS__, 1, 0)

/* The operand of a TLBI by address: VA[55:12] low, the ASID on top. */
static inline u64 tlbi_va_operand(unsigned long addr, unsigned long asid)
{
	return ((addr >> 12) & GENMASK_ULL(43, 0)) | ((u64)asid << 48);
}

/* The TTL hint's granule code: 4K 1, 16K 2, 64K 3. */
static inline u64 tlbi_granule(void)
{
	return PAGE_SIZE == SZ_4K ? 1 : PAGE_SIZE == SZ_16K ? 2 : 3;
}

#define TLBI_TTL_UNKNOWN INT_MAX

/* A level the caller knows goes into the operand when the CPU takes it. */
static inline u64 tlbi_level_operand(unsigned long addr, unsigned long asid, int level)
{
	u64 arg = tlbi_va_operand(addr, asid);

	if (alternative_has_cap_unlikely(ARM64_HAS_ARMv8_4_TTL) && level >= 0 && level <= 3)
		FIELD_MODIFY(GENMASK_ULL(47, 44), &arg, (tlbi_granule() << 2) | level);
	return arg;
}

/* A range operand: (num + 1) << (5 * scale + 1) pages from addr. */
static inline u64 tlbi_range_operand(unsigned long addr, unsigned long asid, int scale, int num, int level)
{
	u64 arg = FIELD_PREP(GENMASK_ULL(36, 0), addr >> PAGE_SHIFT);

	arg |= FIELD_PREP(GENMASK_ULL(38, 37), (level < 0 || level > 3) ? 0 : level);
	arg |= FIELD_PREP(GENMASK_ULL(43, 39), num);
	arg |= FIELD_PREP(GENMASK_ULL(45, 44), scale);
	arg |= FIELD_PREP(GENMASK_ULL(47, 46), tlbi_granule());
	arg |= FIELD_PREP(GENMASK_ULL(63, 48), asid);
	return arg;
}

#define TLBI_RANGE_PAGES(num, scale) ((unsigned long)((num) + 1) << (5 * (scale) + 1))
#define MAX_TLBI_RANGE_PAGES TLBI_RANGE_PAGES(31, 3)
#define MAX_DVM_OPS (PAGE_SIZE / sizeof(pte_t))	/* a table page of entries */

/*
 * `pages` pages from `start`, one TLBI per stride, or, where the CPU has
 * range operations and the stride is a page, the largest ranges first.
 */
#define __flush_tlb_range_op(op, start, pages, stride, asid, level)			\
do {											\
	unsigned long __addr = (start), __left = (pages);				\
	int __scale = 3;								\
											\
	while (__left) {								\
		int __num;								\
											\
		if (!system_supports_tlb_range() || (stride) != PAGE_SIZE ||		\
		    __left == 1 || __scale < 0) {					\
			__tlbi(op, tlbi_level_operand(__addr, (asid), (level)));	\
			__addr += (stride);						\
			__left -= min(__left, (unsigned long)(stride) >> PAGE_SHIFT);	\
			continue;							\
		}									\
		__num = (int)min(__left >> (5 * __scale + 1), 32UL) - 1;		\
		if (__num >= 0) {							\
			__tlbi(r##op, tlbi_range_operand(__addr, (asid), __scale,	\
							 __num, (level)));		\
			__addr += TLBI_RANGE_PAGES(__num, __scale) << PAGE_SHIFT;	\
			__left -= TLBI_RANGE_PAGES(__num, __scale);			\
		}									\
		__scale--;								\
	}										\
} while (0)

typedef unsigned __bitwise tlbf_t;
#define TLBF_NONE ((__force tlbf_t)0)
#define TLBF_NOWALKCACHE ((__force tlbf_t)BIT(0))	/* leaf entries only */
#define TLBF_NOSYNC ((__force tlbf_t)BIT(1))	/* no DSB after: the caller waits later */
#define TLBF_NONOTIFY ((__force tlbf_t)BIT(2))
#define TLBF_NOBROADCAST ((__force tlbf_t)BIT(3))	/* this CPU only */

static inline void flush_tlb_mm(struct mm_struct *mm)
{
	dsb(ishst);
	__tlbi(aside1is, tlbi_va_operand(0, ASID(mm)));
	dsb(ish);
	mmu_notifier_arch_invalidate_secondary_tlbs(mm, 0, -1UL);
}

static inline void flush_tlb_all(void)
{
	dsb(ishst);
	__tlbi(vmalle1is);
	dsb(ish);
	isb();
}

static inline void __flush_tlb_range(struct vm_area_struct *vma, unsigned long start, unsigned long end,
				     unsigned long stride, int tlb_level, tlbf_t flags)
{
	struct mm_struct *mm = vma->vm_mm;
	bool local = flags & TLBF_NOBROADCAST;
	unsigned long asid, pages;

	start = round_down(start, stride);
	end = round_up(end, stride);
	pages = (end - start) >> PAGE_SHIFT;

	/* A range too long to walk is the whole address space. */
	if (pages > MAX_TLBI_RANGE_PAGES ||
	    (!system_supports_tlb_range() && pages >= (MAX_DVM_OPS * stride) >> PAGE_SHIFT)) {
		flush_tlb_mm(mm);
		return;
	}

	if (local)
		dsb(nshst);
	else
		dsb(ishst);
	asid = ASID(mm);
	if (local)
		__flush_tlb_range_op(vale1, start, pages, stride, asid, tlb_level);
	else if (flags & TLBF_NOWALKCACHE)
		__flush_tlb_range_op(vale1is, start, pages, stride, asid, tlb_level);
	else
		__flush_tlb_range_op(vae1is, start, pages, stride, asid, tlb_level);
	if (!(flags & TLBF_NONOTIFY))
		mmu_notifier_arch_invalidate_secondary_tlbs(mm, start, end);
	if (!(flags & TLBF_NOSYNC)) {
		if (local)
			dsb(nsh);
		else
			dsb(ish);
	}
}

static inline void flush_tlb_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	__flush_tlb_range(vma, start, end, PAGE_SIZE, TLBI_TTL_UNKNOWN, TLBF_NONE);
}

/* One page's leaf entry. */
static inline void __flush_tlb_page(struct vm_area_struct *vma, unsigned long uaddr, tlbf_t flags)
{
	unsigned long start = round_down(uaddr, PAGE_SIZE);

	__flush_tlb_range(vma, start, start + PAGE_SIZE, PAGE_SIZE, 3, TLBF_NOWALKCACHE | flags);
}

static inline void flush_tlb_page(struct vm_area_struct *vma, unsigned long uaddr)
{
	__flush_tlb_page(vma, uaddr, TLBF_NONE);
}

static inline void flush_tlb_page_nosync(struct vm_area_struct *vma, unsigned long uaddr)
{
	__flush_tlb_page(vma, uaddr, TLBF_NOSYNC);
}

static inline void local_flush_tlb_page_nonotify(struct vm_area_struct *vma, unsigned long uaddr)
{
	__flush_tlb_page(vma, uaddr, TLBF_NOBROADCAST | TLBF_NONOTIFY);
}

/* This CPU's translations of the run holding addr. */
static inline void local_flush_tlb_contpte(struct vm_area_struct *vma, unsigned long addr)
{
	addr = round_down(addr, CONT_PTE_SIZE);
	__flush_tlb_range(vma, addr, addr + CONT_PTE_SIZE, PAGE_SIZE, 3, TLBF_NOWALKCACHE | TLBF_NOBROADCAST);
}

static inline void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	unsigned long pages = (round_up(end, PAGE_SIZE) - round_down(start, PAGE_SIZE)) >> PAGE_SHIFT;

	if (pages > MAX_TLBI_RANGE_PAGES) {
		flush_tlb_all();
		return;
	}
	dsb(ishst);
	__flush_tlb_range_op(vaale1is, round_down(start, PAGE_SIZE), pages, PAGE_SIZE, 0, TLBI_TTL_UNKNOWN);
	dsb(ish);
	isb();
}

#endif
