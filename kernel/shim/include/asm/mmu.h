/*
 * Shim: the mm's context as TLB maintenance reads it -- its ASID (the user
 * mm's is PTESPEC_USER_ASID, the kernel's 0).  The kernel is mapped at EL0
 * too (no KPTI), so no TLBI is repeated for a user ASID.
 */
#ifndef PTESPEC_SHIM_ASM_MMU_H
#define PTESPEC_SHIM_ASM_MMU_H
#include <linux/atomic.h>
#include <asm/barrier.h>
typedef struct {
	atomic64_t id;
} mm_context_t;
#define ASID(mm) ((unsigned long)atomic64_read(&(mm)->context.id) & 0xffff)
#define USER_ASID_BIT 48
#define USER_ASID_FLAG (UL(1) << USER_ASID_BIT)
static inline bool arm64_kernel_unmapped_at_el0(void) { return false; }
struct arch_tlbflush_unmap_batch;
#endif
