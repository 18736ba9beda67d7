/*
 * Shim: the page size of the granule ptespec builds for, and the struct
 * page array.  Pages exist only as addresses (PTESPEC_VMEMMAP + pfn): what
 * the tree asks of a page or folio, the shims answer from ptespec's world.
 * The linear map and the kernel image are not modelled: reaching them is
 * a fatal verdict naming the line.
 */
#ifndef PTESPEC_SHIM_ASM_MEMORY_H
#define PTESPEC_SHIM_ASM_MEMORY_H

#include <linux/sizes.h>

#define PAGE_SHIFT CONFIG_ARM64_PAGE_SHIFT
#define PAGE_SIZE (_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define VA_BITS CONFIG_ARM64_VA_BITS
#define VA_BITS_MIN VA_BITS
#define vabits_actual ((u64)VA_BITS)
#define MAX_USER_VA_BITS VA_BITS
#define PFN_PHYS(pfn) ((phys_addr_t)(pfn) << PAGE_SHIFT)
#define PHYS_PFN(phys) ((unsigned long)((phys) >> PAGE_SHIFT))
#define __phys_to_pfn(paddr) PHYS_PFN(paddr)
#define __pfn_to_phys(pfn) PFN_PHYS(pfn)

/* Memory attribute indices (MAIR). */
#define MT_NORMAL 0
#define MT_NORMAL_TAGGED 1
#define MT_NORMAL_NC 2
#define MT_DEVICE_nGnRnE 3
#define MT_DEVICE_nGnRE 4

/* The struct page array: vmemmap as the tree computes it is PTESPEC_VMEMMAP. */
struct page;
#define VMEMMAP_START PTESPEC_VMEMMAP
#define memstart_addr ((s64)0)
#ifndef vmemmap
#define vmemmap ((struct page *)VMEMMAP_START - (memstart_addr >> PAGE_SHIFT))
#endif
#define pfn_to_page(pfn) (vmemmap + (pfn))
#define page_to_pfn(page) ((unsigned long)((page) - vmemmap))
#define phys_to_page(phys) pfn_to_page(PHYS_PFN(phys))

/* Kernel-mapping-only address arithmetic: never part of a user pte call. */
static inline unsigned long ptespec_unmodelled(const char *file, int line, const char *what)
{
	ptespec_warn(file, line, what, 1);
	return 0;
}
#define __va(x) ((void *)ptespec_unmodelled(__FILE__, __LINE__, "__va (the linear map is not modelled)"))
#define __pa(x) ((phys_addr_t)ptespec_unmodelled(__FILE__, __LINE__, "__pa (the linear map is not modelled)"))
#define __pa_symbol(x) __pa(x)
#define __phys_to_kimg(x) ptespec_unmodelled(__FILE__, __LINE__, "__phys_to_kimg (the kernel image is not modelled)")

#endif
