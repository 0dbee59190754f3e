extension StreamType {
    /// Delivers every event on `scheduler`, in the original order and one at a time.
    ///
    ///     source (thread A):        -a-b-c|
    ///     observe(on: S) (on S):    --a-b-c|
    ///
    /// Events queue up while a delivery is pending; disposing drops them and cancels
    /// the pending delivery. ReactiveX: `observeOn`.
    public func observe(on scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { downstream in
            let delivery = ScheduledDelivery(to: downstream, on: scheduler)
            let upstream = watch { event in delivery.enqueue(event) }
            return Disposable {
                upstream.dispose()
                delivery.cancel()
            }
        }
    }
}
