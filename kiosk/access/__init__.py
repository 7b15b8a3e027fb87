"""Who may do what at a console, in one place: the roles and what each action needs
(`authority`: the pure model, no files), the PINs' hashes (`pins`), and the authority wired
to the settings and the journal (`settings_authority`: PIN checks, the back-off that survives
a restart, the journal's notes). The PIN pad and the gate are the console's widgets
(kiosk/ui/lock.py): they only ask these which role a tap carries."""
