import Data
import Domain
import Testing

@Suite(.timeLimit(.minutes(1))) struct SimulatedSensorBoardTests {
  @Test func aSubscriber_getsTheCurrentValueFirst_thenEachChange_inOrder() async {
    let sut = SimulatedSensorBoard()
    var volumes = sut.volumeChanges().makeAsyncIterator()

    sut.setSystemVolume(percent: 40)
    sut.setSystemVolume(percent: 50)

    #expect(await volumes.next() == SimulatedSensorBoard.startingReadings.systemVolumePercent)
    #expect(await volumes.next() == 40)
    #expect(await volumes.next() == 50)
  }

  @Test func settingTheSameValue_sendsNothing() async {
    let sut = SimulatedSensorBoard()
    var connections = sut.connectionChanges().makeAsyncIterator()

    sut.setHeadphones(connected: false)
    sut.setHeadphones(connected: true)

    #expect(await connections.next() == false)
    #expect(await connections.next() == true)
  }

  @Test func eachSensor_reachesOnlyItsOwnSubscribers() async {
    let sut = SimulatedSensorBoard()
    var noise = sut.noiseChanges().makeAsyncIterator()

    sut.setHeadphones(connected: true)
    sut.setSystemVolume(percent: 50)
    sut.setNoise(decibels: 35.5)

    #expect(await noise.next() == SimulatedSensorBoard.startingReadings.noiseDecibels)
    #expect(await noise.next() == 35.5)
    #expect(
      sut.readings
        == SensorReadings(headphonesConnected: true, noiseDecibels: 35.5, systemVolumePercent: 50))
  }

  @Test func aSubscription_endsWhenItsConsumerIsCancelled() async {
    let sut = SimulatedSensorBoard()
    let stream = sut.connectionChanges()
    let consumer = Task { for await _ in stream {} }
    #expect(sut.subscriberCount == 1)

    consumer.cancel()
    await consumer.value

    #expect(sut.subscriberCount == 0)
  }
}
