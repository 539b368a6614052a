//! `conform --exec`: the suite run through an implementation's own process.
//!
//! The command reads one vector per line on its standard input, the
//! variant as the suite names it and then its inputs (`bfe.u64 a=0x...
//! b=0x... c=0x...`; shfl's forms with a predicate hold a space,
//! `shfl.up.b32 d|p lane=0x...`, so the inputs begin at the first `=`), and
//! answers each with one line: its outputs (`d=0x...`, or the bare value for
//! a variant with one output), or an outcome word (`trap`, `crash`,
//! `unimplemented`, `timeout`) and an optional message. Answers must be
//! flushed line by line, so that a crash loses none already given.
//!
//! Vectors go out in batches, each with a time limit. When the process
//! dies before answering a batch whole (a signal, or an exit), the vector
//! it was on is recorded as `crash` with the signal or status; when a batch
//! runs out of time, the process is killed and the vector it was on is
//! recorded as `timeout`. Either way a fresh process goes on from the next
//! vector, so no vector is missed and none is answered twice.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use ptx_spec::bv::hex;
use ptx_spec::catalogue::Variant;

use super::files::{actual_text, Event, Happened, Outcome};
use crate::error::Error;

/// How the command is run.
pub struct Exec {
    /// The command and its arguments.
    pub argv: Vec<String>,
    /// Vectors sent before their answers are awaited.
    pub batch: usize,
    /// The time a batch may take.
    pub timeout: Duration,
}

/// A running process of the command.
struct Process {
    child: Child,
    /// Takes each batch's text; the writer thread owns the pipe, so a batch
    /// larger than the pipe never blocks the reading of answers.
    batches: Option<mpsc::Sender<String>>,
    answers: Receiver<String>,
}

impl Process {
    fn start(argv: &[String]) -> Result<Process, Error> {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Error::usage(format!("cannot run `{}`: {e}", argv[0])))?;
        let stdin: ChildStdin = child.stdin.take().expect("a piped stdin");
        let stdout = child.stdout.take().expect("a piped stdout");
        let (batches, inbox) = mpsc::channel::<String>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for text in inbox {
                // A process that died stops taking input; its end is read
                // from the answers.
                if stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        let (tell, answers) = mpsc::channel::<String>();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tell.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, batches: Some(batches), answers })
    }

    fn send(&self, text: String) {
        if let Some(b) = &self.batches {
            let _ = b.send(text);
        }
    }

    /// How the process ended, once its output has closed: `SIGFPE`, or
    /// `exit status 3`.
    fn ended(&mut self) -> String {
        self.batches = None;
        match self.child.wait() {
            Ok(s) => match s.signal() {
                Some(sig) => nix::sys::signal::Signal::try_from(sig)
                    .map_or_else(|_| format!("signal {sig}"), |s| s.as_str().to_string()),
                None => format!("exit status {} before answering", s.code().unwrap_or(0)),
            },
            Err(e) => format!("no status: {e}"),
        }
    }

    fn kill(&mut self) {
        self.batches = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Close its input and let it end; killed if it does not within the
    /// time limit.
    fn finish(mut self, timeout: Duration) {
        self.batches = None;
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// One vector as the command reads it: `add.u32 a=0x00000001 b=0x00000002`.
pub fn line(variant: &Variant, inputs: &[u128]) -> String {
    let mut text = variant.to_string();
    for (o, &x) in variant.inputs().iter().zip(inputs) {
        text.push_str(&format!(" {}={}", o.name, hex(x, o.ty.width())));
    }
    text
}

/// An answer line read as outputs or an outcome.
fn answer(variant: &Variant, text: &str) -> Result<(Vec<u128>, Option<Happened>), String> {
    let text = text.trim();
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    if let Ok(event) = Event::from_word(word) {
        let message = rest.trim();
        return Ok((Vec::new(), Some((event, (!message.is_empty()).then(|| message.to_string())))));
    }
    if text.is_empty() {
        return Err("an empty line".into());
    }
    Ok((actual_text(variant, text)?, None))
}

/// Run every vector of `suite` through the command; the outcomes in the
/// suite's order. `progress` is told how many vectors are answered.
pub fn run(exec: &Exec, suite: &[Outcome], progress: &dyn Fn(usize)) -> Result<Vec<Outcome>, Error> {
    if exec.argv.is_empty() {
        return Err(Error::usage("--exec: no command given"));
    }
    let mut out: Vec<Outcome> = Vec::with_capacity(suite.len());
    let mut process: Option<Process> = None;
    while out.len() < suite.len() {
        crate::interrupt::check().inspect_err(|_| {
            if let Some(p) = process.as_mut() {
                p.kill();
            }
        })?;
        let p = match process.as_mut() {
            Some(p) => p,
            None => process.insert(Process::start(&exec.argv)?),
        };
        let (start, end) = (out.len(), (out.len() + exec.batch).min(suite.len()));
        let mut text = String::new();
        for o in &suite[start..end] {
            text.push_str(&line(&o.variant, &o.inputs));
            text.push('\n');
        }
        p.send(text);
        let deadline = Instant::now() + exec.timeout;
        let mut dead = false;
        while out.len() < end {
            let o = &suite[out.len()];
            let left = deadline.saturating_duration_since(Instant::now());
            let (actual, event) = match p.answers.recv_timeout(left) {
                Ok(text) => match answer(&o.variant, &text) {
                    Ok(read) => read,
                    Err(why) => {
                        p.kill();
                        let vector = line(&o.variant, &o.inputs);
                        return Err(Error::usage(format!(
                            "--exec: the answer to `{vector}` is not outputs or an outcome: {why}"
                        )));
                    }
                },
                Err(RecvTimeoutError::Timeout) => {
                    p.kill();
                    dead = true;
                    let message = format!("no answer within {} s", exec.timeout.as_secs_f64());
                    out.push(Outcome { actual: Vec::new(), event: Some((Event::Timeout, Some(message))), ..o.clone() });
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let message = p.ended();
                    dead = true;
                    out.push(Outcome { actual: Vec::new(), event: Some((Event::Crash, Some(message))), ..o.clone() });
                    break;
                }
            };
            out.push(Outcome { actual, event, ..o.clone() });
        }
        if dead {
            process = None;
        }
        progress(out.len());
    }
    if let Some(p) = process {
        p.finish(exec.timeout);
    }
    Ok(out)
}
