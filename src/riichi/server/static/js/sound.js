// Table sounds, off unless chosen in the table options: short tones made on the
// spot (no sound files), one for each thing worth hearing.
let context = null;
let enabled = false;

const TONES = {
  discard: [[660, 0.05]],
  call: [[520, 0.08], [780, 0.1]],
  riichi: [[440, 0.1], [660, 0.1], [880, 0.16]],
  turn: [[880, 0.07]],
  clock: [[300, 0.12], [300, 0.12]],
};

export function setSound(on) { enabled = Boolean(on); }

export function play(kind) {
  const tones = TONES[kind];
  if (!enabled || !tones) return;
  try {
    context = context || new AudioContext();
    let at = context.currentTime;
    for (const [frequency, length] of tones) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(context.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length + 0.02;
    }
  } catch (err) { enabled = false; }  // no audio here: stay silent
}

// The sounds an update's events make, at most one of each kind.
export function playEvents(events, seat) {
  const kinds = new Set();
  for (const e of events) {
    if (e.type === "discard") kinds.add(e.riichi ? "riichi" : "discard");
    else if (["call", "ankan", "kakan"].includes(e.type)) kinds.add("call");
    else if (e.type === "riichi" && e.seat !== seat) kinds.add("riichi");
  }
  for (const k of kinds) play(k);
}
