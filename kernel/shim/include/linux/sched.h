/*
 * Shim: the calling task.  Every call runs in a task whose active mm is
 * the user mm the world models (defined by the adapter); its flags are
 * per thread.  Lazy MMU mode is never entered by the model's calls, and
 * no call runs in interrupt context.
 */
#ifndef PTESPEC_SHIM_LINUX_SCHED_H
#define PTESPEC_SHIM_LINUX_SCHED_H
#include <linux/mm_types.h>
struct task_struct {
	struct mm_struct *mm;
	struct mm_struct *active_mm;
	unsigned long thread_flags;
};
extern _Thread_local struct task_struct ptespec_task;
#define current (&ptespec_task)
/* Thread flag numbers the headers use. */
enum { TIF_LAZY_MMU = 16, TIF_LAZY_MMU_PENDING = 17 };
#define read_thread_flags() (current->thread_flags)
#define test_thread_flag(f) (!!(current->thread_flags & BIT(f)))
#define set_thread_flag(f) (current->thread_flags |= BIT(f))
#define clear_thread_flag(f) (current->thread_flags &= ~BIT(f))
#define test_and_clear_thread_flag(f) \
	({ bool __t = test_thread_flag(f); clear_thread_flag(f); __t; })
#define in_interrupt() 0
static inline bool is_lazy_mmu_mode_active(void) { return false; }
#endif
