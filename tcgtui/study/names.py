"""How a study is named in the store, for every reader (the report and exports import only this)."""

RUN_PREFIX, PRACTICE_PREFIX = "study:", "study-practice:"     # a study's run is study:<id>, its practice's study-practice:<id>
KIND, PRACTICE_KIND = "study", "study_practice"               # their runs' kinds
