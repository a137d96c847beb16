import MVVMCore
import MVVMHTTP
import MVVMJSON
import MVVMServer
import MVVMSupport
import Testing

@testable import Scenes

@Suite("The car scene (ViewModelable's CarViewModel)")
struct CarViewModelTests {
    @Test("Outputs are defined before any input: 0 and 0")
    func initialOutput() {
        let car = CarViewModel()
        #expect(car.output.horsePower == 0)
        #expect(car.output.weight == 0)
    }

    @Test("A Lamborghini Huracan has 782 horse power and weighs 2100")
    func huracan() {
        let car = CarViewModel()
        car.input.make = "Lamborghini"
        car.input.model = "Huracan"
        car.inputDidChange()
        #expect(car.output.horsePower == 782)
        #expect(car.output.weight == 2100)
    }

    @Test("Any other pair has 120 horse power and weighs 1100")
    func otherCar() {
        let car = CarViewModel()
        car.input.make = "Fiat"
        car.input.model = "Panda"
        car.inputDidChange()
        #expect(car.output.horsePower == 120)
        #expect(car.output.weight == 1100)
    }
}
