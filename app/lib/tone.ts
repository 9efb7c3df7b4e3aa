/** The colour tones of the theme's badges and the hero (rendered by app/components/ui.tsx `Badge`). */
export type Tone = "green" | "red" | "amber" | "orange" | "grey" | "blue";
