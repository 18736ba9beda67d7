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

std::string nonpresent_kind(std::uint64_t v)
{
	const unsigned type = swp_type_of(v);
	if (type < MAX_SWAPFILES)
		return "swap type " + std::to_string(type);
	switch (type) {
	case SWP_HWPOISON:
		return "hwpoison";
	case SWP_MIGRATION_READ:
		return "migration-read";
	case SWP_MIGRATION_READ_EXCLUSIVE:
		return "migration-read-exclusive";
	case SWP_MIGRATION_WRITE:
		return "migration-write";
	case SWP_DEVICE_WRITE:
		return "device-private-write";
	case SWP_DEVICE_READ:
		return "device-private-read";
	case SWP_DEVICE_EXCLUSIVE:
		return "device-exclusive";
	default:
		break;
	}
	const std::uint64_t marker = swp_offset_of(v);
	std::string what;
	for (auto [bit_, name] : {std::pair{PTE_MARKER_UFFD_WP, "uffd-wp"}, std::pair{PTE_MARKER_POISONED, "poison"},
				  std::pair{PTE_MARKER_GUARD, "guard"}})
		if (marker & bit_)
			what += (what.empty() ? "" : "+") + std::string(name);
	if (marker & ~(PTE_MARKER_UFFD_WP | PTE_MARKER_POISONED | PTE_MARKER_GUARD))
		what += (what.empty() ? "" : "+") + std::string("unknown bits");
	return (what.empty() ? std::string("empty") : what) + " marker";
}

} // namespace ptespec
