// What a page-table entry lets an access do, as a set of permissions: the
// words the permission property judges with.
//
// A valid entry always grants reading.  It grants writing when AP[2]
// (RDONLY) is clear, or when DBM (PTE_WRITE) is set: with DBM the first
// write clears RDONLY in hardware, and without hardware dirty management
// the fault it raises is resolved by ptep_set_access_flags clearing it --
// either way the entry was made writable by whoever set DBM.  User access
// is AP[1]; execution is the absence of UXN (EL0) or PXN (EL1).  An invalid
// entry grants nothing: a none entry, a swap entry or a marker.
#pragma once

#include <cstdint>
#include <string>

#include "model/pte.h"

namespace ptespec {

inline constexpr unsigned PERM_READ = 1;
inline constexpr unsigned PERM_WRITE = 2;
inline constexpr unsigned PERM_USER = 4;
inline constexpr unsigned PERM_USER_EXEC = 8;
inline constexpr unsigned PERM_PRIV_EXEC = 16;

inline unsigned perms_of(std::uint64_t e)
{
	if (!pte_valid(e))
		return 0;
	unsigned p = PERM_READ;
	if (pte_write(e) || !pte_rdonly(e))
		p |= PERM_WRITE;
	if (e & PTE_USER)
		p |= PERM_USER;
	if (!(e & PTE_UXN))
		p |= PERM_USER_EXEC;
	if (!(e & PTE_PXN))
		p |= PERM_PRIV_EXEC;
	return p;
}

// "write, user-exec"; "nothing" for none.
inline std::string perm_names(unsigned p)
{
	static constexpr struct {
		unsigned bit;
		const char* name;
	} names[] = {{PERM_READ, "read"},
		     {PERM_WRITE, "write"},
		     {PERM_USER, "user"},
		     {PERM_USER_EXEC, "user-exec"},
		     {PERM_PRIV_EXEC, "priv-exec"}};
	std::string out;
	for (const auto& n : names)
		if (p & n.bit)
			out += (out.empty() ? "" : ", ") + std::string(n.name);
	return out.empty() ? "nothing" : out;
}

} // namespace ptespec
