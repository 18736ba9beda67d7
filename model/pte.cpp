#include "model/pte.h"

namespace ptespec {

std::uint64_t mk_swp_entry(unsigned type, std::uint64_t offset, bool exclusive, bool uffd_wp)
{
	std::uint64_t v = (std::uint64_t{type} & SWP_TYPE_MASK) << SWP_TYPE_SHIFT;
	v |= (offset & SWP_OFFSET_MASK) << SWP_OFFSET_SHIFT;
	if (exclusive)
		v |= PTE_SWP_EXCLUSIVE;
	if (uffd_wp)
		v |= PTE_SWP_UFFD_WP;
	return v;
}

} // namespace ptespec
