package classes

import (
	"encoding/json"
	"fmt"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// VehicleControlAPI is BFCL's vehicle_control.py: doors, engine, brakes,
// climate, cruise control and a few lookups, ported method by method over
// pyval values. Its two readings of the outside temperature and the
// current speed draw from the instance's random.Random (seed 141053
// unless the scenario gives random_seed).
func init() {
	Register(&Class{
		Name: "VehicleControlAPI",
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the vehicle control system, which allows users to control various aspects of the car such as engine, doors, climate control, lights, and more.")
		},
		Load: vehicleLoad,
		Methods: map[string]*Method{
			"startEngine":  {Params: tradeParams("ignitionMode"), Body: vehicleStartEngine},
			"fillFuelTank": {Params: tradeParams("fuelAmount"), Body: vehicleFillFuelTank},
			"lockDoors":    {Params: tradeParams("unlock", "door"), Body: vehicleLockDoors},
			"adjustClimateControl": {Params: []Param{
				{Name: "temperature"},
				{Name: "unit", Default: "celsius", HasDefault: true},
				{Name: "fanSpeed", Default: int64(50), HasDefault: true},
				{Name: "mode", Default: "auto", HasDefault: true},
			}, Body: vehicleAdjustClimateControl},
			"get_outside_temperature_from_google":      {Body: vehicleOutsideTemperatureGoogle},
			"get_outside_temperature_from_weather_com": {Body: vehicleOutsideTemperatureWeatherCom},
			"setHeadlights":                         {Params: tradeParams("mode"), Body: vehicleSetHeadlights},
			"displayCarStatus":                      {Params: tradeParams("option"), Body: vehicleDisplayCarStatus},
			"activateParkingBrake":                  {Params: tradeParams("mode"), Body: vehicleActivateParkingBrake},
			"pressBrakePedal":                       {Params: tradeParams("pedalPosition"), Body: vehiclePressBrakePedal},
			"releaseBrakePedal":                     {Body: vehicleReleaseBrakePedal},
			"setCruiseControl":                      {Params: tradeParams("speed", "activate", "distanceToNextVehicle"), Body: vehicleSetCruiseControl},
			"get_current_speed":                     {Body: vehicleGetCurrentSpeed},
			"display_log":                           {Params: tradeParams("messages"), Body: vehicleDisplayLog},
			"estimate_drive_feasibility_by_mileage": {Params: tradeParams("distance"), Body: vehicleEstimateDriveFeasibility},
			"liter_to_gallon":                       {Params: tradeParams("liter"), Body: vehicleLiterToGallon},
			"gallon_to_liter":                       {Params: tradeParams("gallon"), Body: vehicleGallonToLiter},
			"estimate_distance":                     {Params: tradeParams("cityA", "cityB"), Body: vehicleEstimateDistance},
			"get_zipcode_based_on_city":             {Params: tradeParams("city"), Body: vehicleGetZipcode},
			"set_navigation":                        {Params: tradeParams("destination"), Body: vehicleSetNavigation},
			"check_tire_pressure":                   {Body: vehicleCheckTirePressure},
			"find_nearest_tire_shop":                {Body: vehicleFindNearestTireShop},
		},
	})
}

// vehicleMaxFuel, vehicleMinFuel and vehicleMilesPerGallon are
// MAX_FUEL_LEVEL (an int), MIN_FUEL_LEVEL and MILE_PER_GALLON.
const (
	vehicleMaxFuel        = int64(50)
	vehicleMinFuel        = 0.0
	vehicleMilesPerGallon = 20.0
)

// vehicleLoads are _load_scenario's assignments after the generator, in
// order: the attribute, the scenario key it reads and DEFAULT_STATE's
// value. remainingUnlockedDoors is recounted from doorStatus after it.
var vehicleLoads = []struct {
	attr, key string
	def       func() pyval.Value
}{
	{"fuelLevel", "fuelLevel", func() pyval.Value { return 0.0 }},
	{"batteryVoltage", "batteryVoltage", func() pyval.Value { return 12.6 }},
	{"engine_state", "engineState", func() pyval.Value { return "stopped" }},
	{"remainingUnlockedDoors", "remainingUnlockedDoors", func() pyval.Value { return int64(4) }},
	{"doorStatus", "doorStatus", func() pyval.Value {
		return tradeDict("driver", "unlocked", "passenger", "unlocked", "rear_left", "unlocked", "rear_right", "unlocked")
	}},
	{"acTemperature", "acTemperature", func() pyval.Value { return 25.0 }},
	{"fanSpeed", "fanSpeed", func() pyval.Value { return int64(50) }},
	{"acMode", "acMode", func() pyval.Value { return "auto" }},
	{"humidityLevel", "humidityLevel", func() pyval.Value { return 50.0 }},
	{"headLightStatus", "headLightStatus", func() pyval.Value { return "off" }},
	{"parkingBrakeStatus", "parkingBrakeStatus", func() pyval.Value { return "released" }},
	{"_parkingBrakeForce", "parkingBrakeForce", func() pyval.Value { return 0.0 }},
	{"_slopeAngle", "slopeAngle", func() pyval.Value { return 0.0 }},
	{"brakePedalStatus", "brakePedalStatus", func() pyval.Value { return "released" }},
	{"_brakePedalForce", "brakePedalForce", func() pyval.Value { return 0.0 }},
	{"distanceToNextVehicle", "distanceToNextVehicle", func() pyval.Value { return 50.0 }},
	{"cruiseStatus", "cruiseStatus", func() pyval.Value { return "inactive" }},
	{"destination", "destination", func() pyval.Value { return "None" }},
	{"frontLeftTirePressure", "frontLeftTirePressure", func() pyval.Value { return 32.0 }},
	{"frontRightTirePressure", "frontRightTirePressure", func() pyval.Value { return 32.0 }},
	{"rearLeftTirePressure", "rearLeftTirePressure", func() pyval.Value { return 30.0 }},
	{"rearRightTirePressure", "rearRightTirePressure", func() pyval.Value { return 30.0 }},
}

func vehicleLoad(self *Instance, scenario *pyval.Dict) error {
	seed, err := scenario.GetOr("random_seed", int64(141053))
	if err != nil {
		return err
	}
	r, err := pyval.NewRandom(seed)
	if err != nil {
		return err
	}
	self.Set("_random", r)
	for _, l := range vehicleLoads {
		v, err := scenario.GetOr(l.key, l.def())
		if err != nil {
			return err
		}
		self.Set(l.attr, v)
		if l.attr == "doorStatus" {
			n, err := vehicleDoorsWith(self, "locked")
			if err != nil {
				return err
			}
			self.Set("remainingUnlockedDoors", int64(4-len(n)))
		}
	}
	self.Set("long_context", false)
	return nil
}

// vehicleDoorsWith are the doors in doorStatus whose status is status.
func vehicleDoorsWith(self *Instance, status string) ([]pyval.Value, error) {
	doors := tradeAttr(self, "doorStatus")
	d, ok := doors.(*pyval.Dict)
	if !ok {
		return nil, pyval.AttributeError(doors, "keys")
	}
	var out []pyval.Value
	for _, it := range d.Items() {
		if pyval.Equal(it.Value, status) {
			out = append(out, it.Key)
		}
	}
	return out, nil
}

// vehicleUniform is self._random.uniform(a, b), a + (b-a) * random(),
// random() drawing two 32-bit outputs as CPython's random_random does.
// pyval.Random draws integers only, so this steps a copy of its Mersenne
// Twister state (read through MarshalState) and puts the advanced
// generator back.
func vehicleUniform(self *Instance, a, b float64) (float64, error) {
	r, ok := tradeAttr(self, "_random").(*pyval.Random)
	if !ok {
		return 0, pyval.AttributeError(tradeAttr(self, "_random"), "uniform")
	}
	data, err := r.MarshalState()
	if err != nil {
		return 0, err
	}
	var st struct {
		MT  []uint32 `json:"mt"`
		MTI int      `json:"mti"`
	}
	if err := json.Unmarshal(data, &st); err != nil || len(st.MT) != 624 {
		return 0, fmt.Errorf("vehicle: random state: %s", data)
	}
	hi := vehicleGenrand(st.MT, &st.MTI) >> 5
	lo := vehicleGenrand(st.MT, &st.MTI) >> 6
	state, err := json.Marshal(st)
	if err != nil {
		return 0, err
	}
	next, err := pyval.Unmarshal([]byte(`{"object":"Random","state":` + string(state) + `}`))
	if err != nil {
		return 0, err
	}
	self.Set("_random", next)
	x := (float64(hi)*67108864.0 + float64(lo)) * (1.0 / 9007199254740992.0)
	return a + (b-a)*x, nil
}

// vehicleGenrand is MT19937's genrand_uint32 over state mt at position *i.
func vehicleGenrand(mt []uint32, i *int) uint32 {
	const n, m, upper, lower = 624, 397, 0x80000000, 0x7fffffff
	mag01 := [2]uint32{0, 0x9908b0df}
	if *i >= n {
		for k := 0; k < n; k++ {
			y := mt[k]&upper | mt[(k+1)%n]&lower
			mt[k] = mt[(k+m)%n] ^ y>>1 ^ mag01[y&1]
		}
		*i = 0
	}
	y := mt[*i]
	*i++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

func vehicleStartEngine(self *Instance, args []pyval.Value) (pyval.Value, error) {
	mode := args[0]
	if pyval.Equal(mode, "STOP") {
		self.Set("engine_state", "stopped")
	}
	unlocked, err := pyval.Compare(">", tradeAttr(self, "remainingUnlockedDoors"), int64(0))
	if err != nil {
		return nil, err
	}
	if unlocked {
		doors, err := vehicleDoorsWith(self, "unlocked")
		if err != nil {
			return nil, err
		}
		names, err := pyval.Join(", ", pyval.NewList(doors...))
		if err != nil {
			return nil, err
		}
		return tradeErr("All doors must be locked before starting the engine. Here are the unlocked doors: " + names), nil
	}
	if !pyval.Equal(tradeAttr(self, "brakePedalStatus"), "pressed") {
		return tradeErr("Brake pedal needs to be pressed when starting the engine."), nil
	}
	if !pyval.Equal(tradeAttr(self, "_brakePedalForce"), 1000.0) {
		return tradeErr("Must press the brake fully before starting the engine."), nil
	}
	empty, err := pyval.Compare("<", tradeAttr(self, "fuelLevel"), vehicleMinFuel)
	if err != nil {
		return nil, err
	}
	if empty {
		return tradeErr("Fuel tank is empty."), nil
	}
	if !pyval.Equal(mode, "START") {
		return tradeErr("Invalid ignition mode."), nil
	}
	self.Set("engine_state", "running")
	return tradeDict("engineState", tradeAttr(self, "engine_state"), "fuelLevel", tradeAttr(self, "fuelLevel"),
		"batteryVoltage", tradeAttr(self, "batteryVoltage")), nil
}

func vehicleFillFuelTank(self *Instance, args []pyval.Value) (pyval.Value, error) {
	amount := args[0]
	neg, err := pyval.Compare("<", amount, int64(0))
	if err != nil {
		return nil, err
	}
	if neg {
		return tradeErr("Fuel amount cannot be negative."), nil
	}
	level, err := pyval.Add(tradeAttr(self, "fuelLevel"), amount)
	if err != nil {
		return nil, err
	}
	if over, err := pyval.Compare(">", level, vehicleMaxFuel); err != nil || over {
		if err != nil {
			return nil, err
		}
		return tradeErr("Cannot fill gas above the tank capacity."), nil
	}
	if under, err := pyval.Compare("<", level, vehicleMinFuel); err != nil || under {
		if err != nil {
			return nil, err
		}
		return tradeErr("Fuel tank is empty. Min fuel level is 0 gallons."), nil
	}
	self.Set("fuelLevel", level)
	return tradeDict("fuelLevel", level), nil
}

func vehicleLockDoors(self *Instance, args []pyval.Value) (pyval.Value, error) {
	to, step := "unlocked", int64(1)
	if !pyval.Truth(args[0]) {
		to, step = "locked", -1
	}
	doors, err := pyval.Iter(args[1])
	if err != nil {
		return nil, err
	}
	doorStatus := tradeAttr(self, "doorStatus")
	for _, d := range doors {
		cur, err := pyval.GetItem(doorStatus, d)
		if err != nil {
			return nil, err
		}
		if pyval.Equal(cur, to) {
			continue
		}
		if err := pyval.SetItem(doorStatus, d, to); err != nil {
			return nil, err
		}
		n, err := pyval.Add(tradeAttr(self, "remainingUnlockedDoors"), step)
		if err != nil {
			return nil, err
		}
		self.Set("remainingUnlockedDoors", n)
	}
	return tradeDict("lockStatus", to, "remainingUnlockedDoors", tradeAttr(self, "remainingUnlockedDoors")), nil
}

// vehicleBetween is lo <= v <= hi, chained as Python chains it.
func vehicleBetween(lo, v, hi pyval.Value) (bool, error) {
	ok, err := pyval.Compare("<=", lo, v)
	if err != nil || !ok {
		return false, err
	}
	return pyval.Compare("<=", v, hi)
}

func vehicleAdjustClimateControl(self *Instance, args []pyval.Value) (pyval.Value, error) {
	temperature, unit, fanSpeed, mode := args[0], args[1], args[2], args[3]
	ok, err := vehicleBetween(int64(0), fanSpeed, int64(100))
	if err != nil {
		return nil, err
	}
	if !ok {
		return tradeErr("Fan speed must be between 0 and 100."), nil
	}
	self.Set("acTemperature", temperature)
	if pyval.Equal(unit, "fahrenheit") {
		t, err := pyval.Sub(temperature, int64(32))
		if err == nil {
			t, err = pyval.Mul(t, int64(5))
		}
		if err == nil {
			t, err = pyval.TrueDiv(t, int64(9))
		}
		if err != nil {
			return nil, err
		}
		self.Set("acTemperature", t)
	}
	self.Set("fanSpeed", fanSpeed)
	self.Set("acMode", mode)
	return tradeDict("currentACTemperature", temperature, "climateMode", mode, "humidityLevel", tradeAttr(self, "humidityLevel")), nil
}

func vehicleOutsideTemperatureGoogle(self *Instance, args []pyval.Value) (pyval.Value, error) {
	t, err := vehicleUniform(self, -10.0, 40.0)
	if err != nil {
		return nil, err
	}
	return tradeDict("outsideTemperature", t), nil
}

func vehicleOutsideTemperatureWeatherCom(self *Instance, args []pyval.Value) (pyval.Value, error) {
	return tradeDict("error", int64(404)), nil
}

func vehicleSetHeadlights(self *Instance, args []pyval.Value) (pyval.Value, error) {
	mode := args[0]
	ok, err := pyval.In(mode, pyval.NewList("on", "off", "auto"))
	if err != nil {
		return nil, err
	}
	if !ok {
		return tradeErr("Invalid headlight mode."), nil
	}
	status := "off"
	if pyval.Equal(mode, "on") {
		status = "on"
	}
	self.Set("headLightStatus", status)
	return tradeDict("headlightStatus", status), nil
}

func vehicleDisplayCarStatus(self *Instance, args []pyval.Value) (pyval.Value, error) {
	option := args[0]
	shown := map[string][][2]string{ // option → (status key, attribute)
		"fuel":         {{"fuelLevel", "fuelLevel"}},
		"battery":      {{"batteryVoltage", "batteryVoltage"}},
		"doors":        {{"doorStatus", "doorStatus"}},
		"climate":      {{"currentACTemperature", "acTemperature"}, {"fanSpeed", "fanSpeed"}, {"climateMode", "acMode"}, {"humidityLevel", "humidityLevel"}},
		"headlights":   {{"headlightStatus", "headLightStatus"}},
		"parkingBrake": {{"parkingBrakeStatus", "parkingBrakeStatus"}, {"parkingBrakeForce", "_parkingBrakeForce"}, {"slopeAngle", "_slopeAngle"}},
		"brakePedal":   {{"brakePedalStatus", "brakePedalStatus"}, {"brakePedalForce", "_brakePedalForce"}},
		"engine":       {{"engineState", "engine_state"}},
	}
	status := pyval.NewDict()
	s, _ := option.(string)
	fields, ok := shown[s]
	if !ok {
		status.Set("error", "Invalid option")
		return status, nil
	}
	for _, f := range fields {
		status.Set(f[0], tradeAttr(self, f[1]))
	}
	return status, nil
}

func vehicleActivateParkingBrake(self *Instance, args []pyval.Value) (pyval.Value, error) {
	mode := args[0]
	ok, err := pyval.In(mode, pyval.NewList("engage", "release"))
	if err != nil {
		return nil, err
	}
	if !ok {
		return tradeErr("Invalid mode"), nil
	}
	status, force := "released", 0.0
	if pyval.Equal(mode, "engage") {
		status, force = "engaged", 500.0
	}
	self.Set("parkingBrakeStatus", status)
	self.Set("_parkingBrakeForce", force)
	self.Set("_slopeAngle", 10.0)
	return tradeDict("parkingBrakeStatus", status, "_parkingBrakeForce", force, "_slopeAngle", 10.0), nil
}

func vehiclePressBrakePedal(self *Instance, args []pyval.Value) (pyval.Value, error) {
	pos := args[0]
	ok, err := vehicleBetween(int64(0), pos, int64(1))
	if err != nil {
		return nil, err
	}
	if !ok {
		return tradeErr("Pedal position must be between 0 and 1."), nil
	}
	if pyval.Equal(pos, int64(0)) {
		return vehicleReleaseBrakePedal(self, nil)
	}
	force, err := pyval.Mul(pos, int64(1000))
	if err != nil {
		return nil, err
	}
	self.Set("brakePedalStatus", "pressed")
	self.Set("_brakePedalForce", force)
	f, err := pyval.ToFloat(force)
	if err != nil {
		return nil, err
	}
	return tradeDict("brakePedalStatus", "pressed", "brakePedalForce", f), nil
}

func vehicleReleaseBrakePedal(self *Instance, args []pyval.Value) (pyval.Value, error) {
	self.Set("brakePedalStatus", "released")
	self.Set("_brakePedalForce", 0.0)
	return tradeDict("brakePedalStatus", "released", "brakePedalForce", 0.0), nil
}

func vehicleSetCruiseControl(self *Instance, args []pyval.Value) (pyval.Value, error) {
	distance, err := pyval.ToFloat(args[2])
	if err != nil {
		return nil, err
	}
	speed, err := pyval.ToFloat(args[0])
	if err != nil {
		return nil, err
	}
	if pyval.Equal(tradeAttr(self, "engine_state"), "stopped") {
		return tradeErr("Start the engine before activating the cruise control."), nil
	}
	status := "inactive"
	if pyval.Truth(args[1]) {
		self.Set("distanceToNextVehicle", distance)
		rem, err := pyval.Mod(speed, int64(5))
		if err != nil {
			return nil, err
		}
		if speed < 0 || speed > 120 || !pyval.Equal(rem, int64(0)) {
			return tradeErr("Invalid speed"), nil
		}
		status = "active"
		self.Set("cruiseStatus", status)
	} else {
		self.Set("cruiseStatus", status)
		self.Set("distanceToNextVehicle", distance)
	}
	return tradeDict("cruiseStatus", status, "currentSpeed", speed, "distanceToNextVehicle", distance), nil
}

func vehicleGetCurrentSpeed(self *Instance, args []pyval.Value) (pyval.Value, error) {
	v, err := vehicleUniform(self, 0.0, 120.0)
	if err != nil {
		return nil, err
	}
	return tradeDict("currentSpeed", v), nil
}

func vehicleDisplayLog(self *Instance, args []pyval.Value) (pyval.Value, error) {
	return tradeDict("log", args[0]), nil
}

func vehicleEstimateDriveFeasibility(self *Instance, args []pyval.Value) (pyval.Value, error) {
	reach, err := pyval.Mul(tradeAttr(self, "fuelLevel"), vehicleMilesPerGallon)
	if err != nil {
		return nil, err
	}
	short, err := pyval.Compare("<", reach, args[0])
	if err != nil {
		return nil, err
	}
	return tradeDict("canDrive", !short), nil
}

func vehicleLiterToGallon(self *Instance, args []pyval.Value) (pyval.Value, error) {
	g, err := pyval.Mul(args[0], 0.264172)
	if err != nil {
		return nil, err
	}
	return tradeDict("gallon", g), nil
}

func vehicleGallonToLiter(self *Instance, args []pyval.Value) (pyval.Value, error) {
	l, err := pyval.Mul(args[0], 3.78541)
	if err != nil {
		return nil, err
	}
	return tradeDict("liter", l), nil
}

// vehicleDistances are estimate_distance's city pairs (zip codes, either
// order), in the order it tries them.
var vehicleDistances = []struct {
	a, b string
	km   float64
}{
	{"83214", "74532", 750.0}, {"56108", "62947", 320.0}, {"71354", "83462", 450.0},
	{"47329", "52013", 290.0}, {"69238", "51479", 630.0}, {"94016", "83214", 980.0},
	{"94016", "94704", 600.0}, {"94704", "08540", 2550.0}, {"94016", "08540", 1950.0},
	{"62947", "47329", 1053.0}, {"94016", "62947", 780.0}, {"74532", "94016", 880.0},
}

func vehicleEstimateDistance(self *Instance, args []pyval.Value) (pyval.Value, error) {
	a, b := args[0], args[1]
	for _, d := range vehicleDistances {
		if pyval.Equal(a, d.a) && pyval.Equal(b, d.b) || pyval.Equal(a, d.b) && pyval.Equal(b, d.a) {
			return tradeDict("distance", d.km), nil
		}
	}
	return tradeErr("distance not found in database."), nil
}

// vehicleZipcodes are get_zipcode_based_on_city's cities, in its order.
var vehicleZipcodes = [][2]string{
	{"Rivermist", "83214"}, {"Stonebrook", "74532"}, {"Maplecrest", "56108"}, {"Silverpine", "62947"},
	{"Shadowridge", "71354"}, {"Sunset Valley", "83462"}, {"Oakendale", "47329"}, {"Willowbend", "52013"},
	{"Crescent Hollow", "69238"}, {"Autumnville", "51479"}, {"San Francisco", "94016"},
}

func vehicleGetZipcode(self *Instance, args []pyval.Value) (pyval.Value, error) {
	for _, z := range vehicleZipcodes {
		if pyval.Equal(args[0], z[0]) {
			return tradeDict("zipcode", z[1]), nil
		}
	}
	return tradeDict("zipcode", "00000"), nil
}

func vehicleSetNavigation(self *Instance, args []pyval.Value) (pyval.Value, error) {
	self.Set("destination", args[0])
	status, err := pyval.Add("Navigating to ", args[0])
	if err != nil {
		return nil, err
	}
	return tradeDict("status", status), nil
}

// vehicleTires are the four tire pressure attributes, in the order
// check_tire_pressure adds and reports them.
var vehicleTires = []string{"frontLeftTirePressure", "frontRightTirePressure", "rearLeftTirePressure", "rearRightTirePressure"}

func vehicleCheckTirePressure(self *Instance, args []pyval.Value) (pyval.Value, error) {
	sum := tradeAttr(self, vehicleTires[0])
	for _, t := range vehicleTires[1:] {
		var err error
		if sum, err = pyval.Add(sum, tradeAttr(self, t)); err != nil {
			return nil, err
		}
	}
	mean, err := pyval.TrueDiv(sum, int64(4))
	if err != nil {
		return nil, err
	}
	healthy, err := vehicleBetween(int64(30), mean, int64(35))
	if err != nil {
		return nil, err
	}
	status := pyval.NewDict()
	for _, t := range vehicleTires {
		status.Set(t, tradeAttr(self, t))
	}
	status.Set("healthy_tire_pressure", healthy)
	status.Set("car_info", pyval.NewDict())
	return status, nil
}

func vehicleFindNearestTireShop(self *Instance, args []pyval.Value) (pyval.Value, error) {
	return tradeDict("shopLocation", "456 Oakwood Avenue, Rivermist, 83214"), nil
}
