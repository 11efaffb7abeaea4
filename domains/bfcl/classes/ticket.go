package classes

import (
	"fmt"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// TicketAPI is BFCL's ticket_api.py: a queue of support tickets behind a
// login that takes any non-empty username and password.
func init() {
	Register(&Class{
		Name: "TicketAPI",
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the ticketing system that is part of a company, which allows users to create, view, and manage support business tickets.")
		},
		Load: func(self *Instance, scenario *pyval.Dict) error {
			self.Set("ticket_queue", msgGet(scenario, "ticket_queue", pyval.NewList()))
			self.Set("ticket_counter", msgGet(scenario, "ticket_counter", int64(1)))
			self.Set("current_user", msgGet(scenario, "current_user", nil))
			return nil
		},
		Methods: map[string]*Method{
			"create_ticket": {
				Params: []Param{{Name: "title"}, {Name: "description", Default: "", HasDefault: true}, {Name: "priority", Default: int64(1), HasDefault: true}},
				Body:   ticketCreate,
			},
			"get_ticket": {Params: []Param{{Name: "ticket_id"}}, Body: ticketGet},
			"close_ticket": {Params: []Param{{Name: "ticket_id"}}, Body: func(self *Instance, args []pyval.Value) (pyval.Value, error) {
				return ticketSetStatus(self, args[0], "Closed", "closed", nil)
			}},
			"resolve_ticket": {Params: []Param{{Name: "ticket_id"}, {Name: "resolution"}}, Body: func(self *Instance, args []pyval.Value) (pyval.Value, error) {
				return ticketSetStatus(self, args[0], "Resolved", "resolved", &args[1])
			}},
			"edit_ticket":             {Params: []Param{{Name: "ticket_id"}, {Name: "updates"}}, Body: ticketEdit},
			"ticket_login":            {Params: []Param{{Name: "username"}, {Name: "password"}}, Body: ticketLogin},
			"ticket_get_login_status": {Body: ticketLoginStatus},
			"logout":                  {Body: ticketLogout},
			"get_user_tickets":        {Params: []Param{{Name: "status", HasDefault: true}}, Body: ticketUserTickets},
		},
	})
}

func ticketCreate(self *Instance, args []pyval.Value) (pyval.Value, error) {
	title, description, priority := args[0], args[1], args[2]
	user, _ := self.Get("current_user")
	if !pyval.Truth(user) {
		return msgError("User not authenticated. Please log in to create a ticket."), nil
	}
	// priority < 1 or priority > 5, each comparison as Python makes it (a
	// str priority raises the first one's TypeError).
	low, err := pyval.Compare("<", priority, int64(1))
	if err != nil {
		return nil, err
	}
	high := false
	if !low {
		if high, err = pyval.Compare(">", priority, int64(5)); err != nil {
			return nil, err
		}
	}
	if low || high {
		return msgError("Invalid priority. Priority must be between 1 and 5."), nil
	}
	counter, _ := self.Get("ticket_counter")
	ticket := pyval.DictOf(
		pyval.Item{Key: "id", Value: counter},
		pyval.Item{Key: "title", Value: title},
		pyval.Item{Key: "description", Value: description},
		pyval.Item{Key: "status", Value: "Open"},
		pyval.Item{Key: "priority", Value: priority},
		pyval.Item{Key: "created_by", Value: user},
	)
	queue, _ := self.Get("ticket_queue")
	if err := msgAppend(queue, ticket); err != nil {
		return nil, err
	}
	if err := msgIncrement(self, "ticket_counter"); err != nil {
		return nil, err
	}
	return ticket, nil
}

// ticketFind is _find_ticket: the first ticket whose "id" equals
// ticketID, or nil.
func ticketFind(self *Instance, ticketID pyval.Value) (pyval.Value, error) {
	queue, _ := self.Get("ticket_queue")
	tickets, err := pyval.Iter(queue)
	if err != nil {
		return nil, err
	}
	for _, t := range tickets {
		id, err := pyval.GetItem(t, "id")
		if err != nil {
			return nil, err
		}
		if pyval.Equal(id, ticketID) {
			return t, nil
		}
	}
	return nil, nil
}

func ticketGet(self *Instance, args []pyval.Value) (pyval.Value, error) {
	ticket, err := ticketFind(self, args[0])
	if err != nil {
		return nil, err
	}
	if !pyval.Truth(ticket) {
		return msgError(fmt.Sprintf("Ticket with ID %s not found.", pyval.Str(args[0]))), nil
	}
	return ticket, nil
}

// ticketSetStatus is close_ticket (resolution nil) and resolve_ticket:
// the ticket's status set to status unless it already is, and resolve's
// resolution stored after it.
func ticketSetStatus(self *Instance, ticketID pyval.Value, status, verb string, resolution *pyval.Value) (pyval.Value, error) {
	ticket, err := ticketFind(self, ticketID)
	if err != nil {
		return nil, err
	}
	id := pyval.Str(ticketID)
	if !pyval.Truth(ticket) {
		return msgError(fmt.Sprintf("Ticket with ID %s not found.", id)), nil
	}
	current, err := pyval.GetItem(ticket, "status")
	if err != nil {
		return nil, err
	}
	if pyval.Equal(current, status) {
		return msgError(fmt.Sprintf("Ticket with ID %s is already %s.", id, verb)), nil
	}
	if err := pyval.SetItem(ticket, "status", status); err != nil {
		return nil, err
	}
	if resolution != nil {
		if err := pyval.SetItem(ticket, "resolution", *resolution); err != nil {
			return nil, err
		}
	}
	return pyval.DictOf(pyval.Item{Key: "status", Value: fmt.Sprintf("Ticket %s has been %s successfully.", id, verb)}), nil
}

// ticketFields are edit_ticket's valid_fields.
var ticketFields = map[string]bool{"title": true, "description": true, "status": true, "priority": true}

func ticketEdit(self *Instance, args []pyval.Value) (pyval.Value, error) {
	ticketID, updates := args[0], args[1]
	ticket, err := ticketFind(self, ticketID)
	if err != nil {
		return nil, err
	}
	if !pyval.Truth(ticket) {
		return msgError(fmt.Sprintf("Ticket with ID %s not found.", pyval.Str(ticketID))), nil
	}
	u, ok := updates.(*pyval.Dict)
	if !ok {
		return nil, pyval.AttributeError(updates, "keys")
	}
	// set(updates.keys()) - valid_fields, joined with ", ". Python joins a
	// set, whose order for str keys follows PYTHONHASHSEED; the port
	// joins in the keys' order, the same text whenever one field is
	// invalid (the only case BFCL's data and runs hold).
	var invalid []pyval.Value
	for _, k := range u.Keys() {
		if s, ok := k.(string); !ok || !ticketFields[s] {
			invalid = append(invalid, k)
		}
	}
	if len(invalid) > 0 {
		joined, err := pyval.Join(", ", pyval.NewList(invalid...))
		if err != nil {
			return nil, err
		}
		return msgError("Invalid fields for update: " + joined), nil
	}
	for _, it := range u.Items() {
		if it.Value != nil {
			if err := pyval.SetItem(ticket, it.Key, it.Value); err != nil {
				return nil, err
			}
		}
	}
	return pyval.DictOf(pyval.Item{Key: "status", Value: fmt.Sprintf("Ticket %s has been updated successfully.", pyval.Str(ticketID))}), nil
}

func ticketLogin(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if pyval.Truth(args[0]) && pyval.Truth(args[1]) {
		self.Set("current_user", args[0])
		return pyval.DictOf(pyval.Item{Key: "success", Value: true}), nil
	}
	return pyval.DictOf(pyval.Item{Key: "success", Value: false}), nil
}

func ticketLoginStatus(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	user, _ := self.Get("current_user")
	return pyval.DictOf(pyval.Item{Key: "login_status", Value: pyval.Truth(user)}), nil
}

func ticketLogout(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	user, _ := self.Get("current_user")
	if pyval.Truth(user) {
		self.Set("current_user", nil)
		return pyval.DictOf(pyval.Item{Key: "success", Value: true}), nil
	}
	return pyval.DictOf(pyval.Item{Key: "success", Value: false}), nil
}

func ticketUserTickets(self *Instance, args []pyval.Value) (pyval.Value, error) {
	status := args[0]
	user, _ := self.Get("current_user")
	if !pyval.Truth(user) {
		return pyval.NewList(msgError("User not authenticated. Please log in to view tickets.")), nil
	}
	queue, _ := self.Get("ticket_queue")
	tickets, err := pyval.Iter(queue)
	if err != nil {
		return nil, err
	}
	var mine []pyval.Value
	for _, t := range tickets {
		by, err := pyval.GetItem(t, "created_by")
		if err != nil {
			return nil, err
		}
		if pyval.Equal(by, user) {
			mine = append(mine, t)
		}
	}
	if pyval.Truth(status) {
		var kept []pyval.Value
		for _, t := range mine {
			// ticket["status"].lower() == status.lower(), left first.
			s, err := pyval.GetItem(t, "status")
			if err != nil {
				return nil, err
			}
			left, err := msgLower(s)
			if err != nil {
				return nil, err
			}
			right, err := msgLower(status)
			if err != nil {
				return nil, err
			}
			if left == right {
				kept = append(kept, t)
			}
		}
		mine = kept
	}
	return pyval.NewList(mine...), nil
}
