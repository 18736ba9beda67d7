/*
 * Shim: the page size of the granule ptespec builds for, and the struct
 * page array.  Pages exist only as addresses (PTESPEC_VMEMMAP + pfn): what
 * the tree asks of a page or folio, the shims answer from ptespec's world.
 */
#ifndef PTESPEC_SHIM_ASM_MEMORY_H
#define PTESPEC_SHIM_ASM_MEMORY_H

#define PAGE_SHIFT CONFIG_ARM64_PAGE_SHIFT
#define PAGE_SIZE (_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PHYS_MASK_SHIFT CONFIG_ARM64_PA_BITS
#define PHYS_MASK ((UL(1) << PHYS_MASK_SHIFT) - 1)
#define VA_BITS CONFIG_ARM64_VA_BITS
#define MAX_USER_VA_BITS VA_BITS
#define PFN_PHYS(pfn) ((phys_addr_t)(pfn) << PAGE_SHIFT)
#define PHYS_PFN(phys) ((unsigned long)((phys) >> PAGE_SHIFT))

struct page;
#define vmemmap ((struct page *)PTESPEC_VMEMMAP)
#define pfn_to_page(pfn) (vmemmap + (pfn))
#define page_to_pfn(page) ((unsigned long)((page) - vmemmap))

#endif
