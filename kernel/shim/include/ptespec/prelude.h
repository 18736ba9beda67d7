/*
 * Included before every file of the tree: the configuration ptespec builds
 * the tree for, and the compiler vocabulary every kernel file assumes.
 *
 * Set on the command line by the build: CONFIG_ARM64_PAGE_SHIFT and
 * CONFIG_ARM64_CONT_PTE_SHIFT (the granule), and PTESPEC_SYMBOLIC for the
 * symbolic build, which compiles the same files as C++ with pte words that
 * are terms of the proofs (ptespec/word.h).
 */
#ifndef PTESPEC_PRELUDE_H
#define PTESPEC_PRELUDE_H

#if defined(__cplusplus) != defined(PTESPEC_SYMBOLIC)
#error "ptespec builds a tree as C, or as C++ for the symbolic build (PTESPEC_SYMBOLIC)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptespec/host.h"
#include "ptespec/word.h"

#ifdef __cplusplus
/* C's spellings the tree uses, in C++. */
#define _Static_assert static_assert
#define _Thread_local thread_local
/* A C name that is a C++ keyword (pgattr_change_is_safe's `new`). */
#define new ptespec_new
#endif

/* --- configuration: a user page table with contpte, debugging checks on --- */
#define __KERNEL__ 1
#define CONFIG_ARM64 1
#define CONFIG_MMU 1
#define CONFIG_ARM64_CONTPTE 1
#define CONFIG_DEBUG_VM 1
#define CONFIG_ARM64_VA_BITS 48
#define CONFIG_ARM64_PA_BITS 48
#define CONFIG_PGTABLE_LEVELS 4
#define CONFIG_PAGE_SHIFT CONFIG_ARM64_PAGE_SHIFT
#define CONFIG_TRANSPARENT_HUGEPAGE 1
#define CONFIG_ARM64_HW_AFDBM 1
#define CONFIG_64BIT 1
#define CONFIG_SMP 1
/* log2(CONT_PMDS): 16 pmd blocks to a contiguous run at 4K, 32 at 16K and 64K. */
#define CONFIG_ARM64_CONT_PMD_SHIFT (CONFIG_ARM64_PAGE_SHIFT == 12 ? 4 : 5)
#if CONFIG_ARM64_PAGE_SHIFT == 12
#define CONFIG_ARM64_4K_PAGES 1
#elif CONFIG_ARM64_PAGE_SHIFT == 14
#define CONFIG_ARM64_16K_PAGES 1
#elif CONFIG_ARM64_PAGE_SHIFT == 16
#define CONFIG_ARM64_64K_PAGES 1
#endif
#define IS_ENABLED(option) ptespec_is_enabled(option)
#define ptespec_is_enabled(value) ptespec_is_enabled_(ptespec_arg_##value)
#define ptespec_arg_1 0,
#define ptespec_is_enabled_(arg_or_junk) ptespec_second(arg_or_junk 1, 0)
#define ptespec_second(ignored, val, ...) val

/* --- types --- */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#ifdef __cplusplus
/* A physical address is made of a pte's bits (pfn_pte, pte_to_phys): a word too. */
typedef ptespec_word phys_addr_t;
#else
typedef u64 phys_addr_t;
#endif
typedef unsigned int gfp_t;
typedef long ssize_t;

/* --- compiler vocabulary --- */
#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __must_check __attribute__((__warn_unused_result__))
#define __pure __attribute__((__pure__))
#define __init
#define __initdata
#define __ro_after_init
#define __user
#define __iomem
#define __force
#define __bitwise
#define __rcu
#define __aligned(x) __attribute__((__aligned__(x)))
#define __packed __attribute__((__packed__))
#define __section(s) __attribute__((__section__(s)))
#define fallthrough __attribute__((__fallthrough__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" : : : "memory")
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON: " #cond)
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
#define BUILD_BUG() do { } while (0)
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)

/* --- arithmetic --- */
#define UL(x) ((unsigned long)(x))
#define ULL(x) ((unsigned long long)(x))
#define __AC(x, y) (x##y)
#define _AC(x, y) __AC(x, y)
#define _AT(t, x) ((t)(x))
#define _UL(x) UL(x)
#define _ULL(x) ULL(x)
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & (~0UL >> (63 - (h))))
#define GENMASK_ULL(h, l) (((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (63 - (h))))
#define FIELD_GET(mask, reg) ((typeof(mask))(((reg) & (mask)) >> __builtin_ctzll(mask)))
#define FIELD_PREP(mask, val) ((typeof(mask))(((typeof(mask))(val) << __builtin_ctzll(mask)) & (mask)))
#define round_up(x, y) ((((x) - 1) | ((typeof(x))((y) - 1))) + 1)
#define round_down(x, y) ((x) & ~((typeof(x))((y) - 1)))
#ifndef INT_MAX
#define INT_MAX ((int)(~0U >> 1))
#endif
#define FIELD_MODIFY(mask, reg, val) (*(reg) = (*(reg) & ~(mask)) | FIELD_PREP(mask, val))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __ALIGN_MASK(x, mask) (((x) + (mask)) & ~(mask))
#define ALIGN(x, a) __ALIGN_MASK(x, (typeof(x))(a) - 1)
#define ALIGN_DOWN(x, a) ((x) & ~((typeof(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((typeof(x))(a) - 1)) == 0)
#define PTR_ALIGN(p, a) ((typeof(p))ALIGN((unsigned long)(p), (a)))
#define PTR_ALIGN_DOWN(p, a) ((typeof(p))ALIGN_DOWN((unsigned long)(p), (a)))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

/* --- symbols: a module exports only ptespec's entry point --- */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

/* --- the current call's binding (set by the adapter before each call) --- */
extern _Thread_local const struct ptespec_binding *ptespec_cur;

/* The entry a pte pointer names; wraps below the table (the machine refuses it). */
static inline size_t ptespec_index(const volatile void *p)
{
	return (size_t)(((intptr_t)p - (intptr_t)ptespec_cur->shadow) / 8);
}
/*
 * The host allocates one table's worth of entries before the table and one
 * after it: a pte pointer there (a loop that ran one past its range) is a
 * pte access all the same, handed to the machine with the index it would
 * have, and the machine refuses it as the strategy's fault.
 */
static inline int ptespec_near_table(const volatile void *p, size_t size)
{
	const uintptr_t a = (uintptr_t)p, lo = (uintptr_t)ptespec_cur->shadow;
	const uintptr_t span = ptespec_cur->nr_entries * 8;
	return size == 8 && a >= lo - span && a < lo + 2 * span && (a - lo) % 8 == 0;
}

void ptespec_warn(const char *file, int line, const char *condition, int fatal);
void ptespec_load(const volatile void *p, void *to, size_t size);
void ptespec_store(volatile void *p, const void *from, size_t size);
u64 ptespec_xchg(volatile void *p, u64 v, size_t size);
u64 ptespec_cmpxchg(volatile void *p, u64 old, u64 v, size_t size);
/* A tree's own tlbflush.h: its TLBI macros and every DSB (ptespec/host.h). */
void ptespec_tlbi(const char *op, unsigned long long operand);
void ptespec_dsb(int option);

#ifdef __cplusplus
/*
 * The symbolic build: a table entry is reached only through a type that
 * holds a pte word (its bytes are a handle); through any other type the
 * tree would take a handle for a value, so that is a fatal verdict.
 */
template <class T>
static inline void ptespec_access_check(const volatile T *p)
{
	if (!ptespec_holds_word<T>::value && ptespec_near_table(p, sizeof(T)))
		ptespec_warn(__FILE__, __LINE__, "a pte reached through a type that holds no pte word", 1);
}
/* The 64 bits the host takes for v: a word's handle, or a plain value. */
template <class T>
static inline u64 ptespec_bits_of(const T &v)
{
	if constexpr (ptespec_holds_word<T>::value) {
		u64 u;
		static_assert(sizeof(T) == sizeof(u), "a pte word is 8 bytes");
		memcpy(&u, &v, sizeof(u));
		return u;
	} else {
		return (u64)v;
	}
}
template <class T>
static inline T ptespec_of_bits(u64 u)
{
	if constexpr (ptespec_holds_word<T>::value) {
		T v;
		memcpy(&v, &u, sizeof(u));
		return v;
	} else {
		return (T)u;
	}
}
template <class T, class V>
static inline T ptespec_xchg_t(volatile T *p, const V &v)
{
	const T nv = v;

	ptespec_access_check(p);
	return ptespec_of_bits<T>(ptespec_xchg(p, ptespec_bits_of(nv), sizeof(T)));
}
template <class T, class O, class N>
static inline T ptespec_cmpxchg_t(volatile T *p, const O &o, const N &n)
{
	const T ov = o, nv = n;

	ptespec_access_check(p);
	return ptespec_of_bits<T>(ptespec_cmpxchg(p, ptespec_bits_of(ov), ptespec_bits_of(nv), sizeof(T)));
}
#define PTESPEC_ACCESS_CHECK(p) ptespec_access_check(p)
#define xchg_relaxed(ptr, v) ptespec_xchg_t((ptr), (v))
#define cmpxchg_relaxed(ptr, o, n) ptespec_cmpxchg_t((ptr), (o), (n))
#else
#define PTESPEC_ACCESS_CHECK(p) ((void)0)
#define xchg_relaxed(ptr, v) ((typeof(*(ptr)))ptespec_xchg((ptr), (u64)(v), sizeof(*(ptr))))
#define cmpxchg_relaxed(ptr, o, n) ((typeof(*(ptr)))ptespec_cmpxchg((ptr), (u64)(o), (u64)(n), sizeof(*(ptr))))
#endif

#define READ_ONCE(x)                                                            \
	({                                                                      \
		typeof(x) __ro_v;                                               \
		PTESPEC_ACCESS_CHECK(&(x));                                     \
		ptespec_load(&(x), (void *)&__ro_v, sizeof(__ro_v));            \
		__ro_v;                                                         \
	})
#define WRITE_ONCE(x, val)                                                      \
	do {                                                                    \
		typeof(x) __wo_v = (val);                                       \
		PTESPEC_ACCESS_CHECK(&(x));                                     \
		ptespec_store(&(x), (const void *)&__wo_v, sizeof(__wo_v));     \
	} while (0)
#define xchg(ptr, v) xchg_relaxed(ptr, v)
#define cmpxchg(ptr, o, n) cmpxchg_relaxed(ptr, o, n)
#define cmpxchg_acquire(ptr, o, n) cmpxchg_relaxed(ptr, o, n)
#define cmpxchg_release(ptr, o, n) cmpxchg_relaxed(ptr, o, n)
#define try_cmpxchg_relaxed(ptr, oldp, n)                                       \
	({                                                                      \
		typeof(*(ptr)) __tc_o = *(oldp);                                \
		typeof(*(ptr)) __tc_r = cmpxchg_relaxed(ptr, __tc_o, n);        \
		if (__tc_r != __tc_o)                                           \
			*(oldp) = __tc_r;                                       \
		__tc_r == __tc_o;                                               \
	})
#define try_cmpxchg(ptr, oldp, n) try_cmpxchg_relaxed(ptr, oldp, n)
#define smp_wmb() barrier()
#define smp_rmb() barrier()
#define smp_mb() barrier()

/* --- checks that fire become verdicts naming the tree's file and line (ptespec_warn) --- */
#define WARN_ON(cond)                                                           \
	({                                                                      \
		int __w_c = !!(cond);                                           \
		if (unlikely(__w_c))                                            \
			ptespec_warn(__FILE__, __LINE__, #cond, 0);             \
		unlikely(__w_c);                                                \
	})
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define WARN(cond, ...) WARN_ON(cond)
#define WARN_ONCE(cond, ...) WARN_ON(cond)
#define BUG_ON(cond)                                                            \
	do {                                                                    \
		if (unlikely(cond))                                             \
			ptespec_warn(__FILE__, __LINE__, #cond, 1);             \
	} while (0)
#define BUG() ptespec_warn(__FILE__, __LINE__, "BUG()", 1)
#define VM_WARN_ON(cond) (void)WARN_ON(cond)
#define VM_WARN_ON_ONCE(cond) WARN_ON(cond)
#define VM_WARN_ONCE(cond, ...) WARN_ON(cond)
#define VM_BUG_ON(cond) BUG_ON(cond)
#define VM_WARN_ON_FOLIO(cond, folio) (void)WARN_ON(cond)
#define VM_BUG_ON_FOLIO(cond, folio) BUG_ON(cond)
#define VM_BUG_ON_PAGE(cond, page) BUG_ON(cond)
#define VM_WARN_ON_ONCE_FOLIO(cond, folio) WARN_ON(cond)

#ifdef __cplusplus
/*
 * Last, after every header of ptespec's own: the tree's bool is a truth of
 * the proofs (ptespec/word.h), so the flags it accumulates stay terms.
 */
#define bool ptespec_truth
#endif

#endif /* PTESPEC_PRELUDE_H */
