package llmclient

import (
	"context"
	"fmt"

	"github.com/parthack/parthack/model"
)

// Chat asks one question: system holds the instructions, user quotes the
// data, and the request is built (Request), sent, retried, recorded and
// replayed (Ask) as every request is. parse validates
// the answer text; an error from it is a schema failure, so the same
// request is sent once more. Chat returns the request's sha256 and the
// number of requests sent (1, or 2 when the retry was used).
func (c *Client) Chat(ctx context.Context, call Call, subject, system, user string, parse func(answer []byte) error) (string, int, error) {
	body := c.Request(system, user)
	n, err := c.Ask(ctx, call, subject, body, func(b []byte) error {
		if err := parse(b); err != nil {
			return fmt.Errorf("%w: %v", ErrSchema, err)
		}
		return nil
	})
	return model.Hash(body), n, err
}
