package classes

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// MessageAPI is BFCL's message_api.py: a workspace's users and an inbox
// of one-entry {receiver_id: message} dicts, message ids drawn from the
// instance's own random.Random.
func init() {
	pyval.RegisterObject("set", msgDecodeIDSet)
	Register(&Class{
		Name: "MessageAPI",
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the Message API, which is used to manage user interactions in a workspace.")
		},
		Load: msgLoad,
		Methods: map[string]*Method{
			"list_users":               {Body: msgListUsers},
			"get_user_id":              {Params: []Param{{Name: "user"}}, Body: msgGetUserID},
			"message_login":            {Params: []Param{{Name: "user_id"}}, Body: msgLogin},
			"message_get_login_status": {Body: msgLoginStatus},
			"send_message":             {Params: []Param{{Name: "receiver_id"}, {Name: "message"}}, Body: msgSend},
			"delete_message":           {Params: []Param{{Name: "receiver_id"}}, Body: msgDelete},
			"view_messages_sent":       {Body: msgViewSent},
			"add_contact":              {Params: []Param{{Name: "user_name"}}, Body: msgAddContact},
			"search_messages":          {Params: []Param{{Name: "keyword"}}, Body: msgSearch},
			"get_message_stats":        {Body: msgStats},
		},
	})
}

// msgDefaultSeed is _load_scenario's random_seed when the scenario has
// none.
const msgDefaultSeed = 200191

func msgLoad(self *Instance, scenario *pyval.Dict) error {
	r, err := pyval.NewRandom(msgGet(scenario, "random_seed", int64(msgDefaultSeed)))
	if err != nil {
		return err
	}
	self.Set("_random", r)
	self.Set("generated_ids", msgGet(scenario, "generated_ids", &msgIDSet{}))
	self.Set("user_count", msgGet(scenario, "user_count", int64(4)))
	self.Set("user_map", msgGet(scenario, "user_map", pyval.DictOf(
		pyval.Item{Key: "Alice", Value: "USR001"},
		pyval.Item{Key: "Bob", Value: "USR002"},
		pyval.Item{Key: "Catherine", Value: "USR003"},
		pyval.Item{Key: "Daniel", Value: "USR004"},
	)))
	self.Set("inbox", msgGet(scenario, "inbox", pyval.NewList(
		pyval.DictOf(pyval.Item{Key: "USR002", Value: "My name is Alice. I want to connect."}),
		pyval.DictOf(pyval.Item{Key: "USR003", Value: "Could you upload the file?"}),
		pyval.DictOf(pyval.Item{Key: "USR004", Value: "Could you upload the file?"}),
	)))
	self.Set("message_count", msgGet(scenario, "message_count", int64(3)))
	self.Set("current_user", msgGet(scenario, "current_user", nil))
	return nil
}

// msgGenerateID is _generate_id: randint(10000, 99999) until the draw is
// not in generated_ids, then added to it.
func msgGenerateID(self *Instance) (pyval.Value, error) {
	rv, _ := self.Get("_random")
	r, ok := rv.(*pyval.Random)
	if !ok {
		return nil, pyval.AttributeError(rv, "randint")
	}
	ids, _ := self.Get("generated_ids")
	var id int64
	for {
		var err error
		if id, err = r.Randint(10000, 99999); err != nil {
			return nil, err
		}
		in, err := pyval.In(id, ids)
		if err != nil {
			return nil, err
		}
		if !in {
			break
		}
	}
	set, ok := ids.(*msgIDSet)
	if !ok {
		return nil, pyval.AttributeError(ids, "add")
	}
	set.add(id)
	return pyval.DictOf(pyval.Item{Key: "new_id", Value: id}), nil
}

// msgUserMap is self.user_map, the dict its methods (keys(), values())
// need.
func msgUserMap(self *Instance, method string) (*pyval.Dict, error) {
	m, _ := self.Get("user_map")
	d, ok := m.(*pyval.Dict)
	if !ok {
		return nil, pyval.AttributeError(m, method)
	}
	return d, nil
}

func msgListUsers(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	m, err := msgUserMap(self, "keys")
	if err != nil {
		return nil, err
	}
	return pyval.DictOf(pyval.Item{Key: "user_list", Value: pyval.NewList(m.Keys()...)}), nil
}

func msgGetUserID(self *Instance, args []pyval.Value) (pyval.Value, error) {
	user := args[0]
	m, _ := self.Get("user_map")
	in, err := pyval.In(user, m)
	if err != nil {
		return nil, err
	}
	if !in {
		return msgError(fmt.Sprintf("User '%s' not found in the workspace.", pyval.Str(user))), nil
	}
	d, err := msgUserMap(self, "get")
	if err != nil {
		return nil, err
	}
	id, _ := d.Get(user)
	return pyval.DictOf(pyval.Item{Key: "user_id", Value: id}), nil
}

// msgIsUserID is receiver in self.user_map.values().
func msgIsUserID(self *Instance, id pyval.Value) (bool, error) {
	m, err := msgUserMap(self, "values")
	if err != nil {
		return false, err
	}
	return pyval.In(id, pyval.NewList(m.Values()...))
}

func msgLogin(self *Instance, args []pyval.Value) (pyval.Value, error) {
	userID := args[0]
	known, err := msgIsUserID(self, userID)
	if err != nil {
		return nil, err
	}
	if !known {
		return pyval.DictOf(
			pyval.Item{Key: "login_status", Value: false},
			pyval.Item{Key: "message", Value: fmt.Sprintf("User ID '%s' not found.", pyval.Str(userID))},
		), nil
	}
	self.Set("current_user", userID)
	return pyval.DictOf(
		pyval.Item{Key: "login_status", Value: true},
		pyval.Item{Key: "message", Value: fmt.Sprintf("User '%s' logged in successfully.", pyval.Str(userID))},
	), nil
}

func msgLoginStatus(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	user, _ := self.Get("current_user")
	return pyval.DictOf(pyval.Item{Key: "login_status", Value: pyval.Truth(user)}), nil
}

// msgNotLoggedIn is the error of an action that needs a logged-in user,
// or nil when there is one.
func msgNotLoggedIn(self *Instance) *pyval.Dict {
	if user, _ := self.Get("current_user"); pyval.Truth(user) {
		return nil
	}
	return msgError("No user is currently logged in.")
}

func msgSend(self *Instance, args []pyval.Value) (pyval.Value, error) {
	receiverID, message := args[0], args[1]
	if e := msgNotLoggedIn(self); e != nil {
		return e, nil
	}
	known, err := msgIsUserID(self, receiverID)
	if err != nil {
		return nil, err
	}
	if !known {
		return msgError(fmt.Sprintf("Receiver ID '%s' not found.", pyval.Str(receiverID))), nil
	}
	id, err := msgGenerateID(self)
	if err != nil {
		return nil, err
	}
	entry := pyval.NewDict()
	if err := entry.SetItem(receiverID, message); err != nil {
		return nil, err
	}
	inbox, _ := self.Get("inbox")
	if err := msgAppend(inbox, entry); err != nil {
		return nil, err
	}
	if err := msgIncrement(self, "message_count"); err != nil {
		return nil, err
	}
	return pyval.DictOf(
		pyval.Item{Key: "sent_status", Value: true},
		pyval.Item{Key: "message_id", Value: id},
		pyval.Item{Key: "message", Value: fmt.Sprintf("Message sent to '%s' successfully.", pyval.Str(receiverID))},
	), nil
}

// msgFirstItem is list(message.items())[0]: an inbox entry's receiver
// and message.
func msgFirstItem(message pyval.Value) (pyval.Value, pyval.Value, error) {
	d, ok := message.(*pyval.Dict)
	if !ok {
		return nil, nil, pyval.AttributeError(message, "items")
	}
	if d.Len() == 0 {
		return nil, nil, pyval.IndexError("list index out of range")
	}
	it := d.Items()[0]
	return it.Key, it.Value, nil
}

// msgInbox is iter(self.inbox).
func msgInbox(self *Instance) ([]pyval.Value, error) {
	inbox, _ := self.Get("inbox")
	return pyval.Iter(inbox)
}

func msgDelete(self *Instance, args []pyval.Value) (pyval.Value, error) {
	receiverID := args[0]
	if e := msgNotLoggedIn(self); e != nil {
		return e, nil
	}
	inbox, _ := self.Get("inbox")
	// self.inbox[::-1]
	var reversed []pyval.Value
	switch x := inbox.(type) {
	case *pyval.List, string, pyval.Tuple:
		items, _ := pyval.Iter(x)
		for i := len(items) - 1; i >= 0; i-- {
			reversed = append(reversed, items[i])
		}
	case *pyval.Dict:
		return nil, pyval.TypeError("unhashable type: 'slice'")
	default:
		return nil, pyval.TypeError(fmt.Sprintf("'%s' object is not subscriptable", pyval.TypeName(inbox)))
	}
	for _, message := range reversed {
		receiver, _, err := msgFirstItem(message)
		if err != nil {
			return nil, err
		}
		if pyval.Equal(receiver, receiverID) {
			// list.remove drops the first entry equal to this one, which
			// may be an earlier copy of it.
			l, ok := inbox.(*pyval.List)
			if !ok {
				return nil, pyval.AttributeError(inbox, "remove")
			}
			if err := l.Remove(message); err != nil {
				return nil, err
			}
			return pyval.DictOf(
				pyval.Item{Key: "deleted_status", Value: true},
				pyval.Item{Key: "receiver_id", Value: receiver},
				pyval.Item{Key: "message", Value: fmt.Sprintf("Receiver %s's latest message deleted successfully.", pyval.Str(receiverID))},
			), nil
		}
	}
	return msgError(fmt.Sprintf("Receiver ID %s not found.", pyval.Str(receiverID))), nil
}

func msgViewSent(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	if e := msgNotLoggedIn(self); e != nil {
		return e, nil
	}
	inbox, err := msgInbox(self)
	if err != nil {
		return nil, err
	}
	sent := pyval.NewDict()
	for _, message := range inbox {
		receiver, content, err := msgFirstItem(message)
		if err != nil {
			return nil, err
		}
		if l, ok := sent.Get(receiver); ok {
			l.(*pyval.List).Append(content)
		} else {
			sent.Set(receiver, pyval.NewList(content))
		}
	}
	return pyval.DictOf(pyval.Item{Key: "messages", Value: sent}), nil
}

func msgAddContact(self *Instance, args []pyval.Value) (pyval.Value, error) {
	userName := args[0]
	m, _ := self.Get("user_map")
	in, err := pyval.In(userName, m)
	if err != nil {
		return nil, err
	}
	if in {
		return msgError(fmt.Sprintf("User name '%s' already exists.", pyval.Str(userName))), nil
	}
	if err := msgIncrement(self, "user_count"); err != nil {
		return nil, err
	}
	count, _ := self.Get("user_count")
	userID := "USR" + pyval.ZFill(pyval.Str(count), 3)
	known, err := msgIsUserID(self, userID)
	if err != nil {
		return nil, err
	}
	if known {
		return msgError(fmt.Sprintf("User ID '%s' already exists.", userID)), nil
	}
	if err := pyval.SetItem(m, userName, userID); err != nil {
		return nil, err
	}
	return pyval.DictOf(
		pyval.Item{Key: "added_status", Value: true},
		pyval.Item{Key: "user_id", Value: userID},
		pyval.Item{Key: "message", Value: fmt.Sprintf("Contact '%s' added successfully.", pyval.Str(userName))},
	), nil
}

func msgSearch(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if e := msgNotLoggedIn(self); e != nil {
		return e, nil
	}
	keyword, err := msgLower(args[0])
	if err != nil {
		return nil, err
	}
	inbox, err := msgInbox(self)
	if err != nil {
		return nil, err
	}
	results := pyval.NewList()
	for _, message := range inbox {
		receiver, content, err := msgFirstItem(message)
		if err != nil {
			return nil, err
		}
		lowered, err := msgLower(content)
		if err != nil {
			return nil, err
		}
		if strings.Contains(lowered, keyword) {
			results.Append(pyval.DictOf(
				pyval.Item{Key: "receiver_id", Value: receiver},
				pyval.Item{Key: "message", Value: content},
			))
		}
	}
	return pyval.DictOf(pyval.Item{Key: "results", Value: results}), nil
}

func msgStats(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	if e := msgNotLoggedIn(self); e != nil {
		return e, nil
	}
	inbox, err := msgInbox(self)
	if err != nil {
		return nil, err
	}
	received := int64(0)
	contacts := pyval.NewDict() // a set: its keys
	for _, message := range inbox {
		receiver, _, err := msgFirstItem(message)
		if err != nil {
			return nil, err
		}
		received++
		contacts.Set(receiver, nil)
	}
	return pyval.DictOf(pyval.Item{Key: "stats", Value: pyval.DictOf(
		pyval.Item{Key: "received_count", Value: received},
		pyval.Item{Key: "total_contacts", Value: int64(contacts.Len())},
	)}), nil
}

// msgIDSet is the set of ints generated_ids holds, laid out as CPython's
// set lays out small ints (hash(n) == n), so that its repr lists them in
// Python's order: an open-addressed table of 8 slots or more, probed
// linearly 9 slots and then by perturbation, resized to the smallest
// power of two above 4×used once 3/5 full.
type msgIDSet struct {
	table    []int64 // slots; valid where used[i]
	occupied []bool
	n        int
	inserted []int64 // in insertion order: the state Marshal keeps
}

const (
	msgSetMinSize      = 8
	msgSetLinearProbes = 9
	msgSetPerturbShift = 5
)

func (s *msgIDSet) slot(table []bool, hash int64) int {
	mask := uint64(len(table) - 1)
	perturb := uint64(hash)
	i := uint64(hash) & mask
	for {
		if !table[i] {
			return int(i)
		}
		if i+msgSetLinearProbes <= mask {
			for j := uint64(1); j <= msgSetLinearProbes; j++ {
				if !table[i+j] {
					return int(i + j)
				}
			}
		}
		perturb >>= msgSetPerturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

func (s *msgIDSet) has(x int64) bool {
	for _, v := range s.inserted {
		if v == x {
			return true
		}
	}
	return false
}

// add is set.add for an int not in the set.
func (s *msgIDSet) add(x int64) {
	if s.table == nil {
		s.table, s.occupied = make([]int64, msgSetMinSize), make([]bool, msgSetMinSize)
	}
	i := s.slot(s.occupied, x)
	s.table[i], s.occupied[i] = x, true
	s.n++
	s.inserted = append(s.inserted, x)
	mask := len(s.table) - 1
	if s.n*5 < mask*3 {
		return
	}
	minUsed := s.n * 4
	if s.n > 50000 {
		minUsed = s.n * 2
	}
	size := msgSetMinSize
	for size <= minUsed {
		size <<= 1
	}
	old := s.members()
	s.table, s.occupied = make([]int64, size), make([]bool, size)
	for _, v := range old {
		j := s.slot(s.occupied, v)
		s.table[j], s.occupied[j] = v, true
	}
}

// members are the ints in iteration order.
func (s *msgIDSet) members() []int64 {
	var out []int64
	for i, ok := range s.occupied {
		if ok {
			out = append(out, s.table[i])
		}
	}
	return out
}

func (s *msgIDSet) ClassName() string { return "set" }

func (s *msgIDSet) Repr() string {
	if s.n == 0 {
		return "set()"
	}
	parts := make([]string, 0, s.n)
	for _, v := range s.members() {
		parts = append(parts, fmt.Sprint(v))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Equal is set ==: the same members, whatever their order.
func (s *msgIDSet) Equal(other pyval.Value) bool {
	o, ok := other.(*msgIDSet)
	if !ok || o.n != s.n {
		return false
	}
	for _, v := range s.inserted {
		if !o.has(v) {
			return false
		}
	}
	return true
}

// DeepCopy is copy.deepcopy of a set: set(list(s)), the members added in
// iteration order to a fresh table.
func (s *msgIDSet) DeepCopy(memo map[any]pyval.Value) pyval.Value {
	if c, ok := memo[s]; ok {
		return c
	}
	c := &msgIDSet{}
	for _, v := range s.members() {
		c.add(v)
	}
	memo[s] = c
	return c
}

// Clone is the set as it stands: its table and the order its members
// went in, which its cell keeps.
func (s *msgIDSet) Clone() pyval.Value {
	return &msgIDSet{table: slices.Clone(s.table), occupied: slices.Clone(s.occupied), n: s.n, inserted: slices.Clone(s.inserted)}
}

func (s *msgIDSet) MarshalState() ([]byte, error) {
	if s.inserted == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(s.inserted)
}

func msgDecodeIDSet(state []byte) (pyval.Object, error) {
	var ins []int64
	if err := json.Unmarshal(state, &ins); err != nil {
		return nil, fmt.Errorf("MessageAPI generated_ids: %w", err)
	}
	s := &msgIDSet{}
	for _, v := range ins {
		if s.has(v) {
			return nil, fmt.Errorf("MessageAPI generated_ids: %d twice", v)
		}
		s.add(v)
	}
	return s, nil
}

func (s *msgIDSet) Len() int { return s.n }

func (s *msgIDSet) Truth() bool { return s.n > 0 }

func (s *msgIDSet) Iter() ([]pyval.Value, error) {
	var out []pyval.Value
	for _, v := range s.members() {
		out = append(out, v)
	}
	return out, nil
}

// Contains is x in s, for the ints _generate_id asks about (and any value
// equal to one).
func (s *msgIDSet) Contains(x pyval.Value) (bool, error) {
	if !pyval.Hashable(x) {
		return false, pyval.TypeError(fmt.Sprintf("unhashable type: '%s'", pyval.TypeName(x)))
	}
	for _, v := range s.inserted {
		if pyval.Equal(v, x) {
			return true, nil
		}
	}
	return false, nil
}

// Unhashable marks a set as Python's set: not a dict key.
func (s *msgIDSet) Unhashable() {}

// The helpers below are shared by message.go, posting.go and ticket.go.

// msgGet is scenario.get(key, def).
func msgGet(scenario *pyval.Dict, key string, def pyval.Value) pyval.Value {
	if v, ok := scenario.Get(key); ok {
		return v
	}
	return def
}

// msgError is {"error": text}.
func msgError(text string) *pyval.Dict {
	return pyval.DictOf(pyval.Item{Key: "error", Value: text})
}

// msgAppend is container.append(v).
func msgAppend(container, v pyval.Value) error {
	l, ok := container.(*pyval.List)
	if !ok {
		return pyval.AttributeError(container, "append")
	}
	l.Append(v)
	return nil
}

// msgIncrement is self.<name> += 1: a list's += is extend (which an
// int fails), and the operator an error names is "+=".
func msgIncrement(self *Instance, name string) error {
	v, _ := self.Get(name)
	if l, ok := v.(*pyval.List); ok {
		return l.Extend(int64(1))
	}
	n, err := pyval.Add(v, int64(1))
	if e, ok := err.(*pyval.Exception); ok && strings.HasPrefix(e.Msg, msgPlusError) {
		return pyval.TypeError("unsupported operand type(s) for +=:" + strings.TrimPrefix(e.Msg, msgPlusError))
	}
	if err != nil {
		return err
	}
	self.Set(name, n)
	return nil
}

// msgPlusError is how pyval.Add's TypeError for unsupported operands
// begins.
const msgPlusError = "unsupported operand type(s) for +:"

// msgLower is v.lower().
func msgLower(v pyval.Value) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", pyval.AttributeError(v, "lower")
	}
	return pyval.Lower(s), nil
}

// msgDictGet is d.get(key, def).
func msgDictGet(d, key, def pyval.Value) (pyval.Value, error) {
	dict, ok := d.(*pyval.Dict)
	if !ok {
		return nil, pyval.AttributeError(d, "get")
	}
	return dict.GetOr(key, def)
}
