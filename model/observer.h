// Who watches a machine: the checker (online), a recorder (for printing and
// replay), a cost counter.  Each callback sees the table after the step.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "model/call.h"
#include "model/history.h"

namespace ptespec {

class observer {
public:
	virtual ~observer() = default;
	virtual void on_call_begin(const call&, const table_t&) {}
	virtual void on_primitive(const primitive_step&, const table_t&) {}
	virtual void on_hw_event(const hw_event&, const table_t&) {}
	virtual void on_call_end(const call&, const call_result&, const table_t&) {}
	// The call ended at a primitive outside the table (it never happened).
	virtual void on_fault(const fault_step&, const table_t&) {}
};

// Keeps every step: the history the checker can replay and a
// counterexample prints.
class recorder : public observer {
public:
	explicit recorder(history& h) : h_(h) {}
	// Whether the step being made is the call's beside a lockless read
	// (primitive_step::beside); unset, none is.
	void tell_beside(std::function<bool()> beside) { beside_ = std::move(beside); }
	void on_call_begin(const call& c, const table_t&) override { h_.steps.push_back(call_begin_step{c}); }
	void on_primitive(const primitive_step& p, const table_t&) override
	{
		std::get<primitive_step>(h_.steps.emplace_back(p)).beside = beside_ && beside_();
	}
	void on_hw_event(const hw_event& e, const table_t&) override
	{
		std::get<hw_event>(h_.steps.emplace_back(e)).beside = beside_ && beside_();
	}
	void on_call_end(const call& c, const call_result& r, const table_t&) override
	{
		h_.steps.push_back(call_end_step{c, r});
	}
	void on_fault(const fault_step& f, const table_t&) override { h_.steps.push_back(f); }

private:
	history& h_;
	std::function<bool()> beside_;
};

// Fans one stream of steps out to several observers.
class observer_list : public observer {
public:
	void add(observer* o) { list_.push_back(o); }
	void on_call_begin(const call& c, const table_t& t) override
	{
		for (auto* o : list_) o->on_call_begin(c, t);
	}
	void on_primitive(const primitive_step& p, const table_t& t) override
	{
		for (auto* o : list_) o->on_primitive(p, t);
	}
	void on_hw_event(const hw_event& e, const table_t& t) override
	{
		for (auto* o : list_) o->on_hw_event(e, t);
	}
	void on_call_end(const call& c, const call_result& r, const table_t& t) override
	{
		for (auto* o : list_) o->on_call_end(c, r, t);
	}
	void on_fault(const fault_step& f, const table_t& t) override
	{
		for (auto* o : list_) o->on_fault(f, t);
	}

private:
	std::vector<observer*> list_;
};

} // namespace ptespec
