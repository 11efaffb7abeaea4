package airline

import "github.com/parthack/parthack/domains/tau2"

// Causes of the shipped calls whose result the port gives otherwise than
// the file records; tau2's own Python replay gives the port's result for
// each (testdata/python_hashes.py).
const (
	liveState = "the live run's database was not a fresh copy: its earlier results show changes no call of the run made " +
		"(state shared with other simulations in the run at bfb3ede); tau2's own replay, on which its reward and db_match " +
		"are computed, gives the port's result"
	keyOrder = "the arguments reach the port as parthack's canonical JSON (object keys sorted), so pydantic's repr of the " +
		"agent's argument dict lists its keys sorted where tau2 lists them as the agent wrote them"
)

// Explained are the seven calls of airline-gpt-oss-120b (made at tau2
// bfb3ede) the port answers otherwise, by simulation id and call.
func (World) Explained() map[tau2.Explained]string {
	return map[tau2.Explained]string{
		// run 6, send_certificate: the user already held certificate_3221322 and …23
		{Sim: "93491f82-1573-4ca1-9a08-54dbe8b3045a", Call: 7}: liveState,
		{Sim: "93491f82-1573-4ca1-9a08-54dbe8b3045a", Call: 8}: liveState,
		// run 14, book_reservation: a certificate gone, HATHAT…HATHAV taken
		{Sim: "1717074d-9497-4dab-ae39-b2876f241291", Call: 17}: liveState,
		{Sim: "1717074d-9497-4dab-ae39-b2876f241291", Call: 23}: liveState,
		// run 17, cancel_reservation Z7GOZK: the result shows two cancellations
		{Sim: "7eda7b67-a9d3-4851-b25a-3ac7904630cf", Call: 3}: liveState,
		// runs 7 and 19, book_reservation: a payment method without payment_id
		{Sim: "ab0c2b08-f8e7-4660-a64e-9322ae354f7d", Call: 5}: keyOrder,
		{Sim: "0a3b0dc2-21f8-418f-a43e-196d2e51516b", Call: 4}: keyOrder,
	}
}
