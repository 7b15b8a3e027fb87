"""A side's name shortened readably for the player display (kiosk/ui/name_forms.py)."""

from __future__ import annotations

from kiosk.ui.name_forms import fitted, forms, letters


def test_name_forms_longest_first_initials_surname_given_name_then_abbreviations() -> None:
    assert forms("Konstantinos Papadopoulos")[:5] == [
        "Konstantinos Papadopoulos",
        "K. Papadopoulos",
        "Papadopoulos",
        "Konstantinos",
        "Papadopoulo.",
    ]
    assert forms("Konstantinos Papadopoulos")[-1] == "P."


def test_name_forms_a_conjunct_is_one_letter_never_split() -> None:
    assert letters("श्रीवास्तव") == ["श्री", "वा", "स्त", "व"]
    assert letters("પ્રવીણ") == ["પ્ર", "વી", "ણ"]
    assert forms("राजेन्द्र श्रीवास्तव")[1] == "रा. श्रीवास्तव"


def test_name_forms_a_doubles_side_shortens_both_partners_alike() -> None:
    side = forms("Sita Rao & Ravi Shah")
    assert side[:3] == ["Sita Rao & Ravi Shah", "S. Rao & R. Shah", "Rao & Shah"]
    assert side[-1] == "R.&S."


def test_name_fitted_takes_the_first_form_that_fits() -> None:
    assert fitted("Konstantinos Papadopoulos", lambda form: len(form) <= 7) == "Papado."
    assert fitted("Sita", lambda form: False) == "S."  # none fits: the shortest
