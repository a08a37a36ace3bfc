//! Standard output for the tools' reports (`strata`, and `strata-run`,
//! which includes this file). `println!` panics when the reader has gone
//! (`strata run model.onnx --print | head`); these end the process quietly
//! instead, with status 0, as `strata-opt` does: the reader has what it
//! wanted.

use std::io::{ErrorKind, Write};

/// Writes `args` to standard output. A closed pipe ends the process
/// (status 0); another write error is reported and ends it with status 1.
pub(crate) fn write(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// `print!` through [`write`].
#[allow(unused_macros)] // strata-run, which includes this file, prints lines only
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` through [`write`].
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
