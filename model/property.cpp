#include "model/property.h"

namespace ptespec {

std::string_view to_string(property p)
{
	switch (p) {
	case property::batch_or: return "batch-or";
	case property::no_loss: return "no-loss";
	case property::per_call: return "per-call";
	case property::precise: return "precise";
	case property::isolation: return "isolation";
	case property::well_formed: return "well-formed";
	case property::lockless: return "lockless";
	case property::progress: return "progress";
	case property::permission: return "permission";
	case property::mapping: return "mapping";
	}
	return "?";
}

std::string_view sentence(property p)
{
	switch (p) {
	case property::batch_or: return "a batch returns the OR of exactly the entries it cleared";
	case property::no_loss: return "no access or dirty event vanishes before it is handed off";
	case property::per_call: return "every report includes what was pending when the call began, and pte_batch_hint vouches for nothing untrue";
	case property::precise: return "no report of a flag the folio never had; non-present values read back exactly";
	case property::isolation: return "entries outside the range keep their mapping";
	case property::well_formed: return "no misprogrammed run is visible and CONT changes break before make";
	case property::lockless: return "a lockless read matches some moment of the table";
	case property::progress: return "after set_access_flags the named entry grants the access";
	case property::permission: return "no page is granted a permission that no call asked for";
	case property::mapping: return "every entry a call writes inside its range maps the page the call asked for";
	}
	return "?";
}

std::optional<property> parse_property(std::string_view name)
{
	for (property p : all_properties)
		if (to_string(p) == name)
			return p;
	return std::nullopt;
}

} // namespace ptespec
