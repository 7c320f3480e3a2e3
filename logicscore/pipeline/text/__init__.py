"""What every stage reads text with: word splitting and phrases, mention forms and names,
values (years, numbers), citation marks and source frames, the coreference passes, question
forms, and how a relation reads for an entity (docs/architecture.md). Each is a pure function
of a string or a proposition; none makes a stage's record, so any stage may use them without
going back to an earlier one."""
