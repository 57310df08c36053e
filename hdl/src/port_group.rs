//! Port groups declared once: [`port_group!`] makes a struct of ports that a block holds as one
//! field, on either side of a link (`docs/rust-hdl.md`, 18).
//!
//! A group `l3` with a port `valid` is one port `l3_valid` of the emitted module, exactly as a
//! field `l3_valid` would be: the group enters rust-hdl's visit as a namespace, and the emission
//! joins a group's name to its ports with one `_` (`emit::tree`). Its two directions are type
//! parameters, `O` and `I`: the side that drives the `O` ports holds `Group<Out, In, ..>`, the
//! other side `Group<In, Out, ..>`.

/// Declares a port group: a struct generic over the directions `O` and `I` (then the block's
/// const widths), with a constructor taking the sizes its vectors need and rust-hdl's `Block`
/// and `Logic` (a group has no logic of its own).
///
/// ```ignore
/// port_group! {
///     /// The L3 port.
///     pub struct L3Port<const E: usize, const A: usize> new(lanes) {
///         /// Request.
///         valid: O signal Bit,
///         /// Per lane: write data.
///         data: O vector Bits<E> [lanes],
///     }
/// }
/// ```
macro_rules! port_group {
    (
        $(#[$doc:meta])*
        pub struct $name:ident<$(const $width:ident: usize),*> new($($size:ident),*) {
            $(
                $(#[$field_doc:meta])*
                $field:ident: $dir:ident $kind:ident $ty:ty $([$len:expr])?,
            )*
        }
    ) => {
        $(#[$doc])*
        pub struct $name<O, I, $(const $width: usize),*>
        where
            O: ::rust_hdl::prelude::Direction,
            I: ::rust_hdl::prelude::Direction,
        {
            $(
                $(#[$field_doc])*
                pub $field: port_group!(@type $kind $dir $ty),
            )*
            /// The directions, for a group whose ports all go one way.
            _directions: ::std::marker::PhantomData<(O, I)>,
        }

        impl<O, I, $(const $width: usize),*> $name<O, I, $($width),*>
        where
            O: ::rust_hdl::prelude::Direction,
            I: ::rust_hdl::prelude::Direction,
        {
            /// The group, its vectors sized from the arguments.
            pub fn new($($size: usize),*) -> Self {
                Self {
                    $($field: port_group!(@new $kind $($len)?),)*
                    _directions: ::std::marker::PhantomData,
                }
            }
        }

        impl<O, I, $(const $width: usize),*> ::rust_hdl::prelude::Logic for $name<O, I, $($width),*>
        where
            O: ::rust_hdl::prelude::Direction,
            I: ::rust_hdl::prelude::Direction,
        {
            fn update(&mut self) {}
        }

        impl<O, I, $(const $width: usize),*> ::rust_hdl::prelude::Block for $name<O, I, $($width),*>
        where
            O: ::rust_hdl::prelude::Direction,
            I: ::rust_hdl::prelude::Direction,
        {
            fn connect_all(&mut self) {
                $(self.$field.connect_all();)*
            }

            fn update_all(&mut self) {
                $(self.$field.update_all();)*
            }

            fn has_changed(&self) -> bool {
                false $(|| self.$field.has_changed())*
            }

            fn accept(&self, name: &str, probe: &mut dyn ::rust_hdl::prelude::Probe) {
                probe.visit_start_namespace(name, self);
                $(self.$field.accept(stringify!($field), probe);)*
                probe.visit_end_namespace(name, self);
            }
        }
    };
    (@type signal $dir:ident $ty:ty) => { ::rust_hdl::prelude::Signal<$dir, $ty> };
    (@type vector $dir:ident $ty:ty) => { Vec<::rust_hdl::prelude::Signal<$dir, $ty>> };
    (@new signal) => { Default::default() };
    (@new vector $len:expr) => { crate::signals::signals($len) };
}

pub(crate) use port_group;

#[cfg(test)]
mod tests {
    use rust_hdl::prelude::*;

    use crate::emit::part;

    port_group! {
        /// A request and its answer.
        pub struct Bus<const W: usize> new(lanes) {
            /// A request.
            valid: O signal Bit,
            /// Its data, per lane.
            data: O vector Bits<W> [lanes],
            /// The answer.
            ready: I signal Bit,
        }
    }

    /// Passes the bus through: what the outside drives goes in, the answer comes back.
    #[derive(LogicBlock)]
    struct Inner {
        bus: Bus<In, Out, 8>,
        copy: Signal<Out, Bits<8>>,
    }

    impl Logic for Inner {
        #[hdl_gen]
        fn update(&mut self) {
            self.bus.ready.next = self.bus.valid.val();
            self.copy.next = self.bus.data[1].val();
        }
    }

    /// Holds the group on the other side, and a child that takes it.
    #[derive(LogicBlock)]
    struct Outer {
        bus: Bus<In, Out, 8>,
        copy: Signal<Out, Bits<8>>,
        inner: Inner,
    }

    impl Logic for Outer {
        #[hdl_gen]
        fn update(&mut self) {
            self.inner.bus.valid.next = self.bus.valid.val();
            self.inner.bus.data[0].next = self.bus.data[0].val();
            self.inner.bus.data[1].next = self.bus.data[1].val();
            self.bus.ready.next = self.inner.bus.ready.val();
            self.copy.next = self.inner.copy.val();
        }
    }

    fn outer() -> Outer {
        let inner = Inner {
            bus: Bus::new(2),
            copy: Default::default(),
        };
        Outer {
            bus: Bus::new(2),
            copy: Default::default(),
            inner,
        }
    }

    #[test]
    fn a_group_is_its_name_joined_to_each_port() {
        let emitted = part("groups", outer()).expect("emits");
        let ports: Vec<&str> = emitted.ports.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(ports, ["bus_valid", "bus_data", "bus_ready", "copy"]);
        for spelled in [
            "inner__bus_valid = bus_valid",
            "inner__bus_data__1 = bus_data__1",
            "bus_ready = inner__bus_ready",
            "bus_ready = bus_valid",
            "copy = bus_data__1",
        ] {
            assert!(
                emitted.verilog.contains(spelled),
                "{spelled} in\n{}",
                emitted.verilog
            );
        }
        assert!(!emitted.verilog.contains("bus__"), "{}", emitted.verilog);
    }

    /// A group beside a field its joined name would take.
    #[derive(LogicBlock)]
    struct Clash {
        bus: Bus<In, Out, 8>,
        bus_ready: Signal<In, Bit>,
        copy: Signal<Out, Bit>,
    }

    impl Logic for Clash {
        #[hdl_gen]
        fn update(&mut self) {
            self.bus.ready.next = self.bus.valid.val();
            self.copy.next = self.bus_ready.val() & self.bus.data[0].val().get_bit(0);
        }
    }

    #[test]
    fn a_group_port_and_a_field_of_one_name_are_refused() {
        let clash = Clash {
            bus: Bus::new(1),
            bus_ready: Default::default(),
            copy: Default::default(),
        };
        let error = part("clash", clash).expect_err("refused").to_string();
        assert!(error.contains("bus_ready"), "{error}");
    }
}
