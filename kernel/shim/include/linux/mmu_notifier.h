/* Shim: the model has no secondary TLB (no IOMMU, no KVM) to tell. */
#ifndef PTESPEC_SHIM_LINUX_MMU_NOTIFIER_H
#define PTESPEC_SHIM_LINUX_MMU_NOTIFIER_H
struct mm_struct;
static inline void mmu_notifier_arch_invalidate_secondary_tlbs(struct mm_struct *mm, unsigned long start,
							      unsigned long end)
{
}
static inline void mmu_notifier_invalidate_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
}
#endif
