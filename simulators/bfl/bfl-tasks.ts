/** One submitted generation, as the simulator remembers it: sizes and a seed, never the prompt. */
export type BflTask = {
  id: string;
  model: string;
  width: number;
  height: number;
  outputFormat: 'jpeg' | 'png';
  /** The request's seed, or a random one: reported in the result as BFL does. */
  seed: number;
  /** Hash of model, prompt and seed: the picture's colours. */
  imageSeed: string;
  pendingPollsLeft: number;
  isModerated: boolean;
};

export type BflTasks = {
  add: (task: BflTask) => void;
  find: (id: string) => BflTask | undefined;
};

const maximumTasks = 1000;

/** The tasks of one simulator, oldest forgotten first, like results that expire upstream. */
export function createBflTasks(): BflTasks {
  const tasks = new Map<string, BflTask>();
  return {
    add: (task) => {
      tasks.set(task.id, task);
      if (tasks.size > maximumTasks) {
        const oldest = tasks.keys().next();
        if (!oldest.done) tasks.delete(oldest.value);
      }
    },
    find: (id) => tasks.get(id),
  };
}
