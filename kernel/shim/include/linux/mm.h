/*
 * Shim: what contpte.c takes from <linux/mm.h>: the page tables, and the
 * folio of a page, answered from ptespec's world.
 */
#ifndef PTESPEC_SHIM_LINUX_MM_H
#define PTESPEC_SHIM_LINUX_MM_H

#include <linux/mm_types.h>
#include <linux/pgtable.h>

struct folio *ptespec_page_folio(const struct page *page);
long ptespec_folio_nr_pages(const struct folio *folio);

#define page_folio(p) ptespec_page_folio(p)
#define folio_nr_pages(f) ptespec_folio_nr_pages(f)
#define folio_page(f, n) (&(f)->page + (n))
#define folio_pfn(f) page_to_pfn(&(f)->page)

/* A vma on the stack for a flush of mm's range (the flush reads vm_mm and vm_flags). */
#ifndef TLB_FLUSH_VMA
#define TLB_FLUSH_VMA(mm, flags) { .vm_mm = (mm), .vm_flags = (flags) }
#endif
#endif
