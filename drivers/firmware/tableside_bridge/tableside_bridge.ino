// Tableside sensor bridge: times the four pocket beams and reports them over
// serial by docs/sensor-bridge-protocol.md. A sketch for boards where every
// pin can interrupt (Raspberry Pi Pico / RP2040, ESP32, Arduino Nano Every).
// The filter is a port of drivers/hits.py (BeamFilter); keep the two alike.
// Not compiled in the kiosk's test run: check it with arduino-cli for your board.

#include <Arduino.h>

static const uint8_t POCKET_PIN[4] = {2, 3, 4, 5};  // pockets 1-4
static const bool BROKEN_LEVEL = LOW;               // open-collector receivers, pulled up
static const uint32_t BAUD = 115200;
static const uint32_t HEARTBEAT_US = 250000UL;
static const char BOOT_ID[] = "b0";

static uint32_t glitch_us = 500;
static uint32_t merge_us = 5000;
static uint32_t stuck_ms = 2000;

// -- edges from the interrupts: a ring buffer, written only in the ISRs ------------------
struct EdgeRec { uint32_t t; uint8_t pocket; uint8_t broken; };
static volatile EdgeRec ring[64];
static volatile uint8_t ring_head = 0;
static uint8_t ring_tail = 0;

static void record(uint8_t pocket) {
  uint32_t t = micros();
  uint8_t broken = digitalRead(POCKET_PIN[pocket]) == BROKEN_LEVEL;
  uint8_t next = (ring_head + 1) & 63;
  if (next == ring_tail) return;  // full: the loop is far behind; drop rather than block
  ring[ring_head].t = t;
  ring[ring_head].pocket = pocket;
  ring[ring_head].broken = broken;
  ring_head = next;
}
static void isr0() { record(0); }
static void isr1() { record(1); }
static void isr2() { record(2); }
static void isr3() { record(3); }

// -- sealed lines ------------------------------------------------------------------------
static uint16_t crc16(const char *s, size_t n) {  // CRC-16/CCITT-FALSE
  uint16_t crc = 0xFFFF;
  for (size_t i = 0; i < n; i++) {
    crc ^= (uint16_t)(uint8_t)s[i] << 8;
    for (uint8_t b = 0; b < 8; b++) crc = (crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1;
  }
  return crc;
}

static void sealed(const char *body) {
  char tail[8];
  snprintf(tail, sizeof tail, " *%04X", crc16(body, strlen(body)));
  Serial.print(body);
  Serial.print(tail);
  Serial.print('\n');
}

// -- the filter, one per pocket (drivers/hits.py BeamFilter) -----------------------------
struct Beam {
  bool broken, stuck, absorbing, has_end, has_glitch;
  uint32_t start, pulse, last_end, glitch_start, glitch_end;
};
static Beam beam[4];

static void fault(uint8_t pocket, const char *kind, uint32_t at) {
  char body[64];
  snprintf(body, sizeof body, "F %lu %u %s %lu", (unsigned long)micros(), pocket + 1, kind,
           (unsigned long)at);
  sealed(body);
}

static void poll_stuck(uint8_t p, uint32_t now) {
  Beam &b = beam[p];
  if (b.broken && !b.stuck && (uint32_t)(now - b.start) >= stuck_ms * 1000UL) {
    b.stuck = true;
    fault(p, "stuck", b.start + stuck_ms * 1000UL);
  }
}

static void edge(uint8_t p, uint32_t t, bool broken) {
  Beam &b = beam[p];
  if (broken == b.broken) return;
  poll_stuck(p, t);
  b.broken = broken;
  if (broken) {
    b.pulse = t;
    bool merge_glitch = b.has_glitch && (uint32_t)(t - b.glitch_end) <= merge_us;
    b.has_glitch = false;
    b.absorbing = false;
    if (merge_glitch) {
      b.start = b.glitch_start;
    } else {
      b.start = t;
      b.absorbing = b.has_end && (uint32_t)(t - b.last_end) <= merge_us;
    }
    return;
  }
  if (b.stuck) {
    b.stuck = false;
    b.has_end = false;
    fault(p, "cleared", t);
    return;
  }
  if (b.absorbing) {
    b.absorbing = false;
    b.last_end = t;
    return;
  }
  if ((uint32_t)(t - b.pulse) < glitch_us) {
    b.has_glitch = true;
    b.glitch_start = b.start;
    b.glitch_end = t;
    return;
  }
  b.has_end = true;
  b.last_end = t;
  char body[64];
  snprintf(body, sizeof body, "H %lu %u %lu %lu", (unsigned long)micros(), p + 1,
           (unsigned long)b.start, (unsigned long)(t - b.start));
  sealed(body);
}

// -- the kiosk's one command: SET glitch_us merge_us stuck_ms ----------------------------
static char cmd[64];
static uint8_t cmd_len = 0;

static void command(char *line) {
  char *star = strstr(line, " *");
  if (!star) return;
  uint16_t want = (uint16_t)strtoul(star + 2, NULL, 16);
  if (crc16(line, star - line) != want) return;  // garbled: the kiosk resends on reconnect
  *star = 0;
  unsigned long g, m, s;
  if (sscanf(line, "SET %lu %lu %lu", &g, &m, &s) == 3 && s > 0) {
    glitch_us = g; merge_us = m; stuck_ms = s;
    char body[64];
    snprintf(body, sizeof body, "SET %lu %lu %lu %lu", (unsigned long)micros(), g, m, s);
    sealed(body);
  }
}

static uint32_t next_beat;

void setup() {
  Serial.begin(BAUD);
  void (*isrs[4])() = {isr0, isr1, isr2, isr3};
  uint32_t now = micros();
  for (uint8_t p = 0; p < 4; p++) {
    pinMode(POCKET_PIN[p], INPUT_PULLUP);
    beam[p] = Beam{};
    if (digitalRead(POCKET_PIN[p]) == BROKEN_LEVEL) {
      beam[p].broken = beam[p].stuck = true;
      beam[p].start = now;
    }
    attachInterrupt(digitalPinToInterrupt(POCKET_PIN[p]), isrs[p], CHANGE);
  }
  char body[48];
  snprintf(body, sizeof body, "HELLO %lu %s 1", (unsigned long)micros(), BOOT_ID);
  sealed(body);
  for (uint8_t p = 0; p < 4; p++)
    if (beam[p].stuck) fault(p, "blocked_at_start", now);
  next_beat = micros();
}

void loop() {
  while (ring_tail != ring_head) {
    noInterrupts();
    EdgeRec e = {ring[ring_tail].t, ring[ring_tail].pocket, ring[ring_tail].broken};
    interrupts();
    ring_tail = (ring_tail + 1) & 63;
    edge(e.pocket, e.t, e.broken);
  }
  uint32_t now = micros();
  for (uint8_t p = 0; p < 4; p++) poll_stuck(p, now);
  if ((int32_t)(now - next_beat) >= 0) {
    char body[24];
    snprintf(body, sizeof body, "T %lu", (unsigned long)now);
    sealed(body);
    next_beat += HEARTBEAT_US;
  }
  while (Serial.available()) {
    char c = Serial.read();
    if (c == '\n') { cmd[cmd_len] = 0; command(cmd); cmd_len = 0; }
    else if (cmd_len < sizeof cmd - 1) cmd[cmd_len++] = c;
    else cmd_len = 0;  // too long: not a line
  }
}
