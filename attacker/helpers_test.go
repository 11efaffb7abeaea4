package attacker_test

import (
	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/model"
)

func encode(r *attacker.Result) []byte {
	if r.Best == nil {
		return nil
	}
	return model.EncodeTrajectory(r.Best)
}
