/*
 * Shim: CONFIG_PAGE_TABLE_CHECK off; ptespec's checker judges every store
 * instead.  Variadic: the hooks gained an address argument in 2025.
 */
#ifndef PTESPEC_SHIM_PAGE_TABLE_CHECK_H
#define PTESPEC_SHIM_PAGE_TABLE_CHECK_H
#define page_table_check_ptes_set(...) do { } while (0)
#define page_table_check_pmds_set(...) do { } while (0)
#define page_table_check_puds_set(...) do { } while (0)
#define page_table_check_pte_set(...) do { } while (0)
#define page_table_check_pmd_set(...) do { } while (0)
#define page_table_check_pud_set(...) do { } while (0)
#define page_table_check_pte_clear(...) do { } while (0)
#define page_table_check_pmd_clear(...) do { } while (0)
#define page_table_check_pud_clear(...) do { } while (0)
#define page_table_check_pte_clear_range(...) do { } while (0)
#endif
