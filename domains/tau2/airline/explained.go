package airline

import "github.com/parthack/parthack/domains/tau2"

// keyOrder is the cause of the shipped calls whose result the port gives
// otherwise than the file records; tau2's own Python replay gives the
// port's result for each (testdata/python_hashes.py).
const keyOrder = "the arguments reach the port as parthack's canonical JSON (object keys sorted), so pydantic's repr of the " +
	"agent's argument dict lists its keys sorted where tau2 lists them as the agent wrote them"

// Explained are the two calls of airline-gpt-oss-120b (made at tau2
// bfb3ede) the port answers otherwise, by simulation id and call: runs 7
// and 19, book_reservation with a payment method without payment_id.
func (World) Explained() map[tau2.Explained]string {
	return map[tau2.Explained]string{
		{Sim: "ab0c2b08-f8e7-4660-a64e-9322ae354f7d", Call: 5}: keyOrder,
		{Sim: "0a3b0dc2-21f8-418f-a43e-196d2e51516b", Call: 4}: keyOrder,
	}
}
