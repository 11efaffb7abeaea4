package airline

import "github.com/parthack/parthack/domains/tau2"

func init() {
	tau2.Register(tau2.Domain{Name: DomainName, Tau2Name: "airline", Title: "tau2-bench airline", Prefix: "T2A",
		World: func() (tau2.World, error) {
			db, err := Load()
			if err != nil {
				return nil, err
			}
			return NewWorld(db), nil
		}})
}
