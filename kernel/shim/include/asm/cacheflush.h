/*
 * Shim: cache maintenance is nothing in the model.  The folio flag bits
 * the hugetlb header clears are named; clearing one changes only the
 * folio's flags word, which nothing reads, so the arguments are not
 * evaluated (the word's type changed in 2025).
 */
#ifndef PTESPEC_SHIM_ASM_CACHEFLUSH_H
#define PTESPEC_SHIM_ASM_CACHEFLUSH_H
enum { PG_dcache_clean = 8, PG_mte_tagged = 9, PG_mte_lock = 10 };
#define clear_bit(nr, addr) do { } while (0)
#define set_bit(nr, addr) do { } while (0)
#endif
