/* Shim: CONFIG_PAGE_TABLE_CHECK off; ptespec's checker judges every store instead. */
#ifndef PTESPEC_SHIM_PAGE_TABLE_CHECK_H
#define PTESPEC_SHIM_PAGE_TABLE_CHECK_H
#define page_table_check_ptes_set(mm, ptep, pte, nr) do { } while (0)
#define page_table_check_pte_clear(mm, pte) do { } while (0)
#define page_table_check_pte_set(mm, ptep, pte) do { } while (0)
#define page_table_check_pmd_set(mm, pmdp, pmd) do { } while (0)
#define page_table_check_pud_set(mm, pudp, pud) do { } while (0)
#define page_table_check_pmd_clear(mm, pmd) do { } while (0)
#define page_table_check_pud_clear(mm, pud) do { } while (0)
#endif
